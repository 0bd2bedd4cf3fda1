// An overview's date filter: the range in words for its button, and the picker with the spec's presets and bounds.
import { calendarDate, weekStartsOn } from '../../src/contract/calendar-date.ts';
import { type DateRange, datePresetIds, datePresetLabels, datePresetRange, pickerBounds, presetOfRange } from '../../src/contract/date-range-filter.ts';
import { formatShortDate } from '../../src/format/dates.ts';
import { DateRangePicker } from '../../src/ui/data-table/date-range-picker.tsx';

/** 'Last month', '3 Mar – 9 Mar 2026', 'From 3 Mar 2026', 'Any date'. */
export function dateRangeSummary(range: DateRange, today: string): string {
  const preset = presetOfRange(range, today);
  if (preset) return datePresetLabels[preset];
  const day = (date: string) => formatShortDate(`${date}T12:00:00`);
  if (range.start && range.end) return range.start === range.end ? day(range.start) : `${day(range.start)} – ${day(range.end)}`;
  if (range.start) return `From ${day(range.start)}`;
  if (range.end) return `Until ${day(range.end)}`;
  return 'Any date';
}

export type OverviewDatePickerProps = {
  open: boolean;
  /** the dialog's title: 'Transaction dates' */
  title: string;
  value: DateRange;
  onApply: (range: DateRange) => void;
  onClose: () => void;
};

export function OverviewDatePicker({ open, title, value, onApply, onClose }: OverviewDatePickerProps) {
  const today = calendarDate(new Date());
  const { min, max } = pickerBounds(today);
  return (
    <DateRangePicker
      open={open}
      title={title}
      value={value}
      presets={datePresetIds.map((id) => ({ id, label: datePresetLabels[id], range: datePresetRange(id, today) }))}
      min={min}
      max={max}
      weekStartsOn={weekStartsOn}
      onApply={onApply}
      onClose={onClose}
    />
  );
}
