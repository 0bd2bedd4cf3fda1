// The portal's own date and time entry (instead of the browser's datetime-local, which renders in the browser's
// locale and style and accepts a six-digit year): a date typed as dd/mm/yyyy and a 24-hour time, ↑/↓ step a day or
// 5 minutes, Page Up/Down a month or an hour. The value is a wall-clock 'YYYY-MM-DDTHH:mm' in the user's zone; what
// cannot be read (a year beyond 9999 among them) is said under the fields and reported, never guessed.
import { type KeyboardEvent, useId, useState } from 'react';
import { dateText, readDateTime, stepDate, stepTime, type WallClock } from './date-time-model.ts';
import './date-time-field.css';

export type DateTimeChange = { value: WallClock | null; problem: string | null };

export function DateTimeField({
  label,
  value,
  hint,
  onChange,
  timeStepMinutes = 5,
}: {
  label: string;
  /** 'YYYY-MM-DDTHH:mm' or '' for none */
  value: WallClock;
  hint?: string;
  /** an empty field is no value and no problem; a half-typed one is a problem */
  onChange: (change: DateTimeChange) => void;
  timeStepMinutes?: number;
}) {
  const ids = { date: useId(), time: useId(), hint: useId(), problem: useId() };
  const [date, setDate] = useState(() => (value ? dateText(value.slice(0, 10)) : ''));
  const [time, setTime] = useState(() => (value ? value.slice(11, 16) : ''));
  const [shown, setShown] = useState<string | null>(null);

  const report = (nextDate: string, nextTime: string, show: boolean) => {
    if (nextDate.trim() === '' && nextTime.trim() === '') {
      setShown(null);
      onChange({ value: null, problem: null });
      return;
    }
    const read = readDateTime(nextDate, nextTime.trim() === '' && nextDate.trim() !== '' ? '00:00' : nextTime);
    const problem = 'problem' in read ? read.problem : null;
    if (show || problem === null) setShown(problem);
    onChange({ value: 'value' in read ? read.value : null, problem });
  };
  const onDateKey = (event: KeyboardEvent<HTMLInputElement>) => {
    const by =
      event.key === 'ArrowUp'
        ? { days: 1 }
        : event.key === 'ArrowDown'
          ? { days: -1 }
          : event.key === 'PageUp'
            ? { months: 1 }
            : event.key === 'PageDown'
              ? { months: -1 }
              : null;
    if (!by) return;
    const next = stepDate(date, by);
    if (next === null) return;
    event.preventDefault();
    setDate(next);
    report(next, time, true);
  };
  const onTimeKey = (event: KeyboardEvent<HTMLInputElement>) => {
    const minutes =
      event.key === 'ArrowUp'
        ? timeStepMinutes
        : event.key === 'ArrowDown'
          ? -timeStepMinutes
          : event.key === 'PageUp'
            ? 60
            : event.key === 'PageDown'
              ? -60
              : 0;
    if (minutes === 0) return;
    const next = stepTime(time || '00:00', minutes);
    if (next === null) return;
    event.preventDefault();
    setTime(next);
    report(date, next, true);
  };
  const describedBy = [hint ? ids.hint : null, shown ? ids.problem : null].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset className="date-time-field">
      <legend>{label}</legend>
      <div className="date-time-inputs">
        <label htmlFor={ids.date}>Date</label>
        <input
          id={ids.date}
          className="dt-input date-time-date"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder="dd/mm/yyyy"
          maxLength={16}
          value={date}
          aria-invalid={shown !== null}
          aria-describedby={describedBy}
          onChange={(event) => {
            setDate(event.target.value);
            report(event.target.value, time, false);
          }}
          onBlur={() => report(date, time, true)}
          onKeyDown={onDateKey}
        />
        <label htmlFor={ids.time}>Time</label>
        <input
          id={ids.time}
          className="dt-input date-time-time"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder="hh:mm"
          maxLength={5}
          value={time}
          aria-invalid={shown !== null}
          aria-describedby={describedBy}
          onChange={(event) => {
            setTime(event.target.value);
            report(date, event.target.value, false);
          }}
          onBlur={() => report(date, time, true)}
          onKeyDown={onTimeKey}
        />
      </div>
      {hint ? (
        <span id={ids.hint} className="date-time-hint">
          {hint}
        </span>
      ) : null}
      {shown ? (
        <span id={ids.problem} className="date-time-problem" role="alert">
          {shown}
        </span>
      ) : null}
    </fieldset>
  );
}
