// The filter bar's fields: text search, amount (exact, or min and/or max), a choice of several values, and the
// date range button. Each is a controlled field with a visible label; problems are shown beside the field.
import { type Ref, useId } from 'react';
import { SearchIcon } from '../icons.tsx';
import { Popover } from './popover.tsx';

export function SearchField({ label, value, onChange, inputRef, placeholder }: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <div className="dt-field filter-search">
      <label htmlFor={id} className="visually-hidden">{label}</label>
      <span className="filter-search-icon" aria-hidden="true"><SearchIcon /></span>
      <input
        ref={inputRef}
        id={id}
        type="search"
        className="dt-input"
        value={value}
        placeholder={placeholder ?? label}
        maxLength={100}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

export type AmountValue = { mode: 'exact' | 'range'; exact: string; min: string; max: string };
export type AmountProblemsValue = { exact?: string; min?: string; max?: string };

export function AmountField({ value, problems, onChange }: { value: AmountValue; problems: AmountProblemsValue; onChange: (value: AmountValue) => void }) {
  const base = useId();
  const input = (key: 'exact' | 'min' | 'max', label: string) => {
    const problem = problems[key];
    return (
      <div className="dt-field filter-amount-input">
        <label htmlFor={`${base}-${key}`}>{label}</label>
        <input
          id={`${base}-${key}`}
          className="dt-input"
          inputMode="decimal"
          autoComplete="off"
          value={value[key]}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${base}-${key}-problem` : undefined}
          onChange={(event) => onChange({ ...value, [key]: event.target.value.replace(/[^\d.]/g, '') })}
        />
        {problem ? <span id={`${base}-${key}-problem`} className="dt-problem">{problem}</span> : null}
      </div>
    );
  };
  return (
    <fieldset className="filter-amount">
      <legend>Amount</legend>
      <div className="dt-segmented" role="radiogroup" aria-label="Amount match">
        {(['range', 'exact'] as const).map((mode) => (
          <label key={mode} className={`dt-segmented-option${value.mode === mode ? ' is-checked' : ''}`}>
            <input type="radio" name={`${base}-mode`} value={mode} checked={value.mode === mode} onChange={() => onChange({ ...value, mode })} />
            {mode === 'range' ? 'Range' : 'Exact'}
          </label>
        ))}
      </div>
      {value.mode === 'exact' ? input('exact', 'Exact amount') : (
        <>
          {input('min', 'Minimum amount')}
          {input('max', 'Maximum amount')}
        </>
      )}
    </fieldset>
  );
}

export type ChoiceOption = { value: string; label: string };

/** 'Status: Paid, Declined' — several values of one field, any of which matches. */
export function ChoiceFilter({ label, options, selected, onChange }: {
  label: string;
  options: readonly ChoiceOption[];
  selected: readonly string[];
  onChange: (selected: string[]) => void;
}) {
  const summary = selected.length === 0 ? 'Any' : selected.length <= 2
    ? selected.map((value) => options.find((option) => option.value === value)?.label ?? value).join(', ')
    : `${selected.length} chosen`;
  return (
    <Popover
      title={label}
      label={`${label}: ${summary}`}
      triggerClassName={`button filter-choice${selected.length > 0 ? ' is-active' : ''}`}
      trigger={<><span className="filter-choice-label">{label}</span><span className="filter-choice-value">{summary}</span></>}
    >
      {(close) => (
        <fieldset className="choice-list">
          <legend className="visually-hidden">{label}</legend>
          {options.map((option) => (
            <label key={option.value} className="dt-checkbox">
              <input
                type="checkbox"
                checked={selected.includes(option.value)}
                onChange={(event) => onChange(event.target.checked ? [...selected, option.value] : selected.filter((value) => value !== option.value))}
              />
              <span>{option.label}</span>
            </label>
          ))}
          <div className="choice-actions">
            <button type="button" className="button button-ghost" disabled={selected.length === 0} onClick={() => onChange([])}>Any {label.toLowerCase()}</button>
            <button type="button" className="button" onClick={close}>Done</button>
          </div>
        </fieldset>
      )}
    </Popover>
  );
}

/** Shows the chosen range and opens the date dialog. */
export function DateRangeButton({ label, summary, active, onOpen, buttonRef }: {
  label: string;
  summary: string;
  active: boolean;
  onOpen: () => void;
  buttonRef?: Ref<HTMLButtonElement>;
}) {
  return (
    <button ref={buttonRef} type="button" className={`button filter-choice${active ? ' is-active' : ''}`} onClick={onOpen} aria-haspopup="dialog">
      <span className="filter-choice-label">{label}</span>
      <span className="filter-choice-value">{summary}</span>
    </button>
  );
}
