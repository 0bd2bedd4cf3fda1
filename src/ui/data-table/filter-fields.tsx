// The filter bar's fields: text search, amount (exact, or min and/or max), a choice of several values, and the
// date range button. Each is a controlled field with a visible label; problems are shown beside the field.
import { type KeyboardEvent, type Ref, useId, useRef, useState } from 'react';
import { SearchIcon } from '../icons.tsx';
import { rovingTarget, typeaheadTarget } from '../roving-focus.ts';
import { Popover } from './popover.tsx';

/**
 * What the search field's keys do besides typing, as in Linear: Escape clears the text (and the search with it) on
 * the first press and leaves the field for the list on the second, so the list's keys (j / k, g sequences) work
 * again; ↓ goes down into the list; Enter with nothing typed opens the list's highlighted row (`onOpen`, given
 * while no search is applied: Enter otherwise applies the cleared search).
 */
export type SearchFieldKeys = {
  /** the text was cleared by Escape: apply the empty search */
  onClear?: () => void;
  /** leave the field for the list (its cursor row, or the table itself) */
  onLeave?: () => void;
  onOpen?: () => void;
};

export function searchFieldKeyDown(event: KeyboardEvent<HTMLInputElement>, value: string, keys: SearchFieldKeys, onChange: (value: string) => void): void {
  if (event.altKey || event.ctrlKey || event.metaKey || event.nativeEvent.isComposing) return;
  if (event.key === 'Escape') {
    // The shortcut binder leaves a handled Escape alone (the pane's own Esc would go back from a record).
    if (value !== '') {
      event.preventDefault();
      onChange('');
      keys.onClear?.();
    } else if (keys.onLeave) {
      event.preventDefault();
      keys.onLeave();
    }
    return;
  }
  if (event.key === 'ArrowDown' && !event.shiftKey && keys.onLeave) {
    event.preventDefault();
    keys.onLeave();
    return;
  }
  if (event.key === 'Enter' && !event.shiftKey && value.trim() === '' && keys.onOpen) {
    event.preventDefault();
    keys.onOpen();
  }
}

export function SearchField({
  label,
  value,
  onChange,
  inputRef,
  placeholder,
  keys = {},
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
  placeholder?: string;
  keys?: SearchFieldKeys;
}) {
  const id = useId();
  return (
    <div className="dt-field filter-search">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <span className="filter-search-icon" aria-hidden="true">
        <SearchIcon />
      </span>
      <input
        ref={inputRef}
        id={id}
        type="search"
        className="dt-input"
        value={value}
        placeholder={placeholder ?? label}
        maxLength={100}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => searchFieldKeyDown(event, value, keys, onChange)}
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
        {problem ? (
          <span id={`${base}-${key}-problem`} className="dt-problem">
            {problem}
          </span>
        ) : null}
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
      {value.mode === 'exact' ? (
        input('exact', 'Exact amount')
      ) : (
        <>
          {input('min', 'Minimum amount')}
          {input('max', 'Maximum amount')}
        </>
      )}
    </fieldset>
  );
}

export type ChoiceOption = { value: string; label: string };

/**
 * 'Status: Paid, Declined' — several values of one field, any of which matches. Ticks are a draft: the choice
 * applies on Apply (or Enter), never on the first tick, so choosing three statuses is one request, not three.
 * 'Any …' clears and applies at once; Escape or a click outside leaves the filter as it was. The list is one tab stop
 * that follows the listbox pattern: ↑/↓ (Home, End, or a value's first letter) move between the values, Space ticks,
 * Enter applies.
 */
export function ChoiceFilter({
  label,
  options,
  selected,
  onChange,
}: {
  label: string;
  options: readonly ChoiceOption[];
  selected: readonly string[];
  onChange: (selected: string[]) => void;
}) {
  const summary =
    selected.length === 0
      ? 'Any'
      : selected.length <= 2
        ? selected.map((value) => options.find((option) => option.value === value)?.label ?? value).join(', ')
        : `${selected.length} chosen`;
  return (
    <Popover
      title={label}
      label={`${label}: ${summary}`}
      triggerClassName={`button filter-choice${selected.length > 0 ? ' is-active' : ''}`}
      // The visible text is the accessible name ('Type: Refund'), so speech input can say what it reads.
      trigger={
        <>
          <span className="filter-choice-label">{label}:</span> <span className="filter-choice-value">{summary}</span>
        </>
      }
    >
      {(close) => (
        <ChoiceList
          label={label}
          options={options}
          selected={selected}
          onApply={(values) => {
            onChange(values);
            close();
          }}
        />
      )}
    </Popover>
  );
}

function ChoiceList({
  label,
  options,
  selected,
  onApply,
}: {
  label: string;
  options: readonly ChoiceOption[];
  selected: readonly string[];
  onApply: (selected: string[]) => void;
}) {
  const [draft, setDraft] = useState<string[]>(() => [...selected]);
  // The roving tab stop: the first ticked value, else the first.
  const [active, setActive] = useState(() =>
    Math.max(
      0,
      options.findIndex((option) => selected.includes(option.value)),
    ),
  );
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  // The declared order, whatever order the ticks came in.
  const ordered = () => options.map((option) => option.value).filter((value) => draft.includes(value));
  const onListKeyDown = (event: KeyboardEvent<HTMLFieldSetElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const to =
      rovingTarget(event.key, active, options.length) ??
      typeaheadTarget(
        event.key,
        active,
        options.map((option) => option.label),
      );
    if (to === null) return;
    event.preventDefault();
    setActive(to);
    boxes.current[to]?.focus();
  };
  return (
    // The list is portalled, but React events bubble to the filter bar's own form: the submit stops here.
    <form
      className="choice-list"
      onSubmit={(event) => {
        event.preventDefault();
        event.stopPropagation();
        onApply(ordered());
      }}
    >
      <fieldset onKeyDown={onListKeyDown}>
        <legend className="visually-hidden">{label}</legend>
        {options.map((option, index) => (
          <label key={option.value} className="dt-checkbox">
            <input
              ref={(element) => {
                boxes.current[index] = element;
              }}
              type="checkbox"
              tabIndex={index === active ? 0 : -1}
              onFocus={() => setActive(index)}
              checked={draft.includes(option.value)}
              onChange={(event) => setDraft(event.target.checked ? [...draft, option.value] : draft.filter((value) => value !== option.value))}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  event.stopPropagation();
                  onApply(ordered());
                }
              }}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </fieldset>
      <div className="choice-actions">
        <button type="button" className="button button-ghost" disabled={selected.length === 0 && draft.length === 0} onClick={() => onApply([])}>
          Any {label.toLowerCase()}
        </button>
        <button type="submit" className="button button-primary">
          Apply
        </button>
      </div>
    </form>
  );
}

/** Shows the chosen range and opens the date dialog. */
export function DateRangeButton({
  label,
  summary,
  active,
  onOpen,
  buttonRef,
}: {
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
