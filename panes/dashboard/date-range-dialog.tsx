// The date control (Shift+D): the spec's presets (today, yesterday, this and last week, month and year) and a
// custom range from five years ago to today. A preset shows that period with its own interval; a range
// switches the dashboard to the custom interval.
import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from 'react';
import { addDays, daysInRange, isIsoDate, type IsoDate } from '../../src/contract/calendar-date.ts';
import { maxCustomRangeDays, periodContaining, shiftPeriod, type DashboardPeriod } from '../../src/contract/dashboard-intervals.ts';
import { DeferredModal as Modal } from '../../src/ui/deferred-modal.tsx';
import { rovingTarget } from '../../src/ui/roving-focus.ts';
import { formatLocalDate } from './dashboard-format.ts';

export type DateRangeDialogProps = {
  open: boolean;
  today: IsoDate;
  initial: DashboardPeriod | null;
  onChoosePeriod: (period: DashboardPeriod) => void;
  onChooseRange: (startDate: IsoDate, endDate: IsoDate) => void;
  onClose: () => void;
};

type Preset = { label: string; period: (today: IsoDate) => DashboardPeriod };
const presets: readonly Preset[] = [
  { label: 'Today', period: (today) => periodContaining('day', today) },
  { label: 'Yesterday', period: (today) => shiftPeriod(periodContaining('day', today), -1) },
  { label: 'This week', period: (today) => periodContaining('week', today) },
  { label: 'Last week', period: (today) => shiftPeriod(periodContaining('week', today), -1) },
  { label: 'This month', period: (today) => periodContaining('month', today) },
  { label: 'Last month', period: (today) => shiftPeriod(periodContaining('month', today), -1) },
  { label: 'This year', period: (today) => periodContaining('year', today) },
  { label: 'Last year', period: (today) => shiftPeriod(periodContaining('year', today), -1) },
];

/** The spec's date picker reaches back five years. */
export const earliestSelectable = (today: IsoDate): IsoDate => `${Number(today.slice(0, 4)) - 5}${today.slice(4)}`.replace(/-02-29$/, '-02-28');

export function rangeProblem(startDate: string, endDate: string, today: IsoDate): string | null {
  if (!isIsoDate(startDate)) return 'From is required';
  if (!isIsoDate(endDate)) return 'To is required';
  const earliest = earliestSelectable(today);
  if (startDate < earliest || endDate < earliest) return `Dates should be after ${formatLocalDate(addDays(earliest, -1))}`;
  if (startDate > today || endDate > today) return 'Dates may not be in the future';
  if (endDate < startDate) return 'To should be on or after From';
  if (daysInRange(startDate, endDate) > maxCustomRangeDays) return `A range may span ${maxCustomRangeDays} days maximum`;
  return null;
}

export function DateRangeDialog({ open, today, initial, onChoosePeriod, onChooseRange, onClose }: DateRangeDialogProps) {
  const [startDate, setStartDate] = useState(initial?.startDate ?? addDays(today, -29));
  const [endDate, setEndDate] = useState(initial?.endDate && initial.endDate <= today ? initial.endDate : today);
  const [submitted, setSubmitted] = useState(false);
  const fromId = useId();
  const toId = useId();
  const errorId = useId();
  const problem = rangeProblem(startDate, endDate, today);
  const [activePreset, setActivePreset] = useState(0);
  const presetButtons = useRef<(HTMLButtonElement | null)[]>([]);
  const onPresetKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const to = rovingTarget(event.key, activePreset, presets.length, 'both');
    if (to === null) return;
    event.preventDefault();
    setActivePreset(to);
    presetButtons.current[to]?.focus();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!problem) onChooseRange(startDate, endDate);
  };

  return (
    <Modal open={open} title="Choose dates" onClose={onClose} size="md" closeActionLabel="Cancel">
      {/* One tab stop: the arrows move between the periods, Enter or Space chooses one. */}
      <div className="dashboard-presets" role="group" aria-label="Periods" onKeyDown={onPresetKeyDown}>
        {presets.map((preset, index) => (
          <button
            key={preset.label}
            ref={(element) => {
              presetButtons.current[index] = element;
            }}
            type="button"
            className="button"
            tabIndex={index === activePreset ? 0 : -1}
            onFocus={() => setActivePreset(index)}
            onClick={() => onChoosePeriod(preset.period(today))}
          >
            {preset.label}
          </button>
        ))}
      </div>
      <form className="dashboard-range-form" onSubmit={submit} noValidate>
        <fieldset>
          <legend>Custom range</legend>
          <label htmlFor={fromId}>From</label>
          <input
            id={fromId}
            type="date"
            value={startDate}
            min={earliestSelectable(today)}
            max={today}
            required
            aria-invalid={submitted && problem !== null}
            aria-describedby={submitted && problem ? errorId : undefined}
            onChange={(event) => setStartDate(event.target.value)}
          />
          <label htmlFor={toId}>To</label>
          <input
            id={toId}
            type="date"
            value={endDate}
            min={earliestSelectable(today)}
            max={today}
            required
            aria-invalid={submitted && problem !== null}
            aria-describedby={submitted && problem ? errorId : undefined}
            onChange={(event) => setEndDate(event.target.value)}
          />
          <button type="submit" className="button button-primary">
            Show range
          </button>
        </fieldset>
        {submitted && problem && (
          <p id={errorId} className="dashboard-range-error" role="alert">
            {problem}
          </p>
        )}
      </form>
    </Modal>
  );
}
