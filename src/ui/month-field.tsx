// The portal's month entry (instead of the browser's <input type=month>, unstyled and unlike the rest of the portal):
// typed as mm/yyyy (10/2026, 2026-10 or Oct 2026 are read too), ↑/↓ step a month and Page Up/Down a year, the month
// named beside it. Enter is left to the caller (a filter applies, a form submits).
import { type KeyboardEvent, type Ref, useId, useState } from 'react';
import { monthName, readMonth, stepMonth } from './date-time-model.ts';
import './date-time-field.css';

const textOf = (month: string) => (month ? `${month.slice(5, 7)}/${month.slice(0, 4)}` : '');

export function MonthField({
  label,
  value,
  onChange,
  onEnter,
  inputRef,
  required = false,
}: {
  label: string;
  /** 'YYYY-MM' or '' */
  value: string;
  /** the month read ('' when empty), or the problem of what is typed */
  onChange: (change: { value: string | null; problem: string | null }) => void;
  onEnter?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  required?: boolean;
}) {
  const ids = { input: useId(), named: useId(), problem: useId() };
  const [text, setText] = useState(() => textOf(value));
  const [problem, setProblem] = useState<string | null>(null);
  const read = (next: string) => {
    if (next.trim() === '') return required ? { value: null, problem: 'Choose a month.' } : { value: '', problem: null };
    const reading = readMonth(next);
    return 'value' in reading ? { value: reading.value, problem: null } : { value: null, problem: reading.problem };
  };
  const current = read(text);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      setProblem(current.problem);
      if (current.problem === null) onEnter?.();
      else event.preventDefault();
      return;
    }
    const by = event.key === 'ArrowUp' ? 1 : event.key === 'ArrowDown' ? -1 : event.key === 'PageUp' ? 12 : event.key === 'PageDown' ? -12 : 0;
    if (by === 0 || !current.value) return;
    event.preventDefault();
    const next = stepMonth(current.value, by);
    setText(textOf(next));
    setProblem(null);
    onChange({ value: next, problem: null });
  };
  return (
    <div className="month-field">
      <label htmlFor={ids.input}>{label}</label>
      <div className="month-field-row">
        <input
          ref={inputRef}
          id={ids.input}
          className="dt-input month-field-input"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder="mm/yyyy"
          maxLength={10}
          value={text}
          aria-invalid={problem !== null}
          aria-describedby={problem ? `${ids.named} ${ids.problem}` : ids.named}
          onChange={(event) => {
            setText(event.target.value);
            const next = read(event.target.value);
            if (next.problem === null) setProblem(null);
            onChange(next);
          }}
          onBlur={() => setProblem(current.problem)}
          onKeyDown={onKeyDown}
        />
        <span id={ids.named} className="date-time-hint">
          {current.value ? monthName(current.value) : 'mm/yyyy; ↑ ↓ change the month'}
        </span>
      </div>
      {problem ? (
        <span id={ids.problem} className="date-time-problem" role="alert">
          {problem}
        </span>
      ) : null}
    </div>
  );
}
