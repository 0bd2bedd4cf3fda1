// Every dashboard command, for the app's registry (commands/all-commands.ts spreads this list in).
import type { Command } from '../command.ts';
import { barChartCommand, lineChartCommand } from './chart-type.ts';
import { compareOffCommand, compareOnCommand } from './compare.ts';
import { activityDateCommand, paymentDateCommand } from './date-basis.ts';
import { selectCurrencyCommands } from './select-currency.ts';
import { selectIntervalCommands } from './select-interval.ts';
import { selectMeasureCommands } from './select-measure.ts';
import { nextPeriodCommand, previousPeriodCommand } from './step-period.ts';

export const dashboardCommands: readonly Command[] = [
  ...selectIntervalCommands,
  previousPeriodCommand,
  nextPeriodCommand,
  compareOnCommand,
  compareOffCommand,
  ...selectMeasureCommands,
  ...selectCurrencyCommands,
  barChartCommand,
  lineChartCommand,
  paymentDateCommand,
  activityDateCommand,
];
