// The date range dialog: presets (today … last year), one tab stop in the listbox pattern (↑/↓, Home, End or a first
// letter move; Space takes a preset into the fields without applying it; Enter or a click applies it at once), From
// and To fields, and one or two month
// calendars (one under 576 px wide) from which a range is picked by keyboard or pointer. Weeks start on the given
// day, dates outside min…max cannot be chosen. Dates are calendar dates (YYYY-MM-DD); the screen turns them into
// times (00:00:00 to 23:59:59).
import { type KeyboardEvent, type RefObject, useEffect, useId, useMemo, useRef, useState } from 'react';
import { formatDate } from '../../format/dates.ts';
import { Modal } from '../modal.tsx';
import { rovingTarget, typeaheadTarget } from '../roving-focus.ts';
import { clampDate, firstOfMonth, type IsoDate, monthOf, monthWeeks, moveByKey, pickDay, shiftMonths, weekdayHeaders } from './calendar-model.ts';

export type DateRangeValue = { start: IsoDate | null; end: IsoDate | null };
export type DateRangePreset = { id: string; label: string; range: { start: IsoDate; end: IsoDate } };

export type DateRangePickerProps = {
  open: boolean;
  title?: string;
  value: DateRangeValue;
  presets: readonly DateRangePreset[];
  min: IsoDate;
  max: IsoDate;
  weekStartsOn: number;
  /** 1 or 2 month columns; by default from the viewport (one under 576 px) */
  columns?: 1 | 2;
  onApply: (range: DateRangeValue) => void;
  onClose: () => void;
};

/** Under this viewport width the picker shows one month, else two. */
const pickerOneColumnBelowPx = 576;
export const pickerColumns = (viewportWidth: number): 1 | 2 => (viewportWidth < pickerOneColumnBelowPx ? 1 : 2);
/** The same width as a media query: narrower than pickerOneColumnBelowPx. */
const narrowQuery = `(max-width: ${pickerOneColumnBelowPx - 0.02}px)`;

function useMonthColumns(forced?: 1 | 2): 1 | 2 {
  // One query list for the component's life: a new one each render made the effect below subscribe again each time.
  const [query] = useState(() => (typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(narrowQuery) : null));
  const [narrow, setNarrow] = useState(query?.matches ?? false);
  useEffect(() => {
    if (!query) return undefined;
    const update = () => setNarrow(query.matches);
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, [query]);
  return forced ?? (narrow ? 1 : 2);
}

const monthTitle = (month: IsoDate) => formatDate(`${firstOfMonth(month)}T12:00:00`).replace(/^\d+ /, '');

export function DateRangePicker(props: DateRangePickerProps) {
  const { open, title = 'Dates', value, presets, min, max, weekStartsOn, onApply, onClose } = props;
  const columns = useMonthColumns(props.columns);
  const [draft, setDraft] = useState<DateRangeValue>(value);
  const [picking, setPicking] = useState<'start' | 'end'>('start');
  const [active, setActive] = useState<IsoDate>(clampDate(value.end ?? value.start ?? max, min, max));
  const [viewMonth, setViewMonth] = useState<IsoDate>(firstOfMonth(active));
  const calendars = useRef<HTMLDivElement>(null);
  const presetButtons = useRef<(HTMLButtonElement | null)[]>([]);
  const [activePreset, setActivePreset] = useState(0);
  const openedOn = useRef(value);
  openedOn.current = value;
  // The dialog opens on the preset of the applied range, else the first (read when the focus is placed).
  const currentPreset = useMemo<RefObject<HTMLElement | null>>(
    () => ({
      get current() {
        const index = presets.findIndex((preset) => preset.range.start === openedOn.current.start && preset.range.end === openedOn.current.end);
        return presetButtons.current[Math.max(0, index)] ?? null;
      },
    }),
    [presets],
  );
  const focusDay = useRef(false);
  const fromId = useId();
  const toId = useId();
  const problemId = useId();

  // Each opening starts from the filter's current value (only on opening: edits in the dialog are a draft).
  // biome-ignore lint/correctness/useExhaustiveDependencies: on opening alone: the value, bounds and presets are read as they are then
  useEffect(() => {
    if (!open) return;
    const start = clampDate(value.end ?? value.start ?? max, min, max);
    setDraft(value);
    setActivePreset(
      Math.max(
        0,
        presets.findIndex((preset) => preset.range.start === value.start && preset.range.end === value.end),
      ),
    );
    setPicking('start');
    setActive(start);
    setViewMonth(firstOfMonth(columns === 2 && monthOf(start) !== monthOf(min) ? shiftMonths(start, -1) : start));
  }, [open]);

  const months = useMemo(() => Array.from({ length: columns }, (_, index) => shiftMonths(viewMonth, index)), [viewMonth, columns]);

  useEffect(() => {
    if (!focusDay.current) return;
    focusDay.current = false;
    calendars.current?.querySelector<HTMLButtonElement>(`button[data-day="${active}"]`)?.focus();
  });

  // Closed, nothing is built: the pane re-renders on every focus change, and two months of day buttons (with their
  // formatted titles) cost ~3 ms each time for a dialog nobody sees.
  if (!open) return null;

  const activate = (day: IsoDate) => {
    const next = clampDate(day, min, max);
    setActive(next);
    const first = months[0] ?? viewMonth;
    const last = months[months.length - 1] ?? viewMonth;
    if (monthOf(next) < monthOf(first)) setViewMonth(firstOfMonth(next));
    else if (monthOf(next) > monthOf(last)) setViewMonth(firstOfMonth(shiftMonths(next, -(columns - 1))));
    focusDay.current = true;
  };

  const choose = (day: IsoDate) => {
    const result = pickDay(draft, day, picking);
    setDraft(result.range);
    setPicking(result.next);
    setActive(day);
  };

  const onDayKeyDown = (event: KeyboardEvent<HTMLButtonElement>, day: IsoDate) => {
    const next = moveByKey(day, event.key, event.shiftKey, weekStartsOn);
    if (next === null) return;
    event.preventDefault();
    activate(next);
  };

  const onPresetKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const preset = presets[index];
    if (event.key === ' ' && preset) {
      // Space takes the preset as the draft (its dates in the fields and calendars); Enter or Apply dates applies it.
      event.preventDefault();
      setDraft(preset.range);
      setPicking('start');
      setActive(preset.range.end);
      const end = clampDate(preset.range.end, min, max);
      setViewMonth(firstOfMonth(columns === 2 && monthOf(end) !== monthOf(min) ? shiftMonths(end, -1) : end));
      return;
    }
    const to =
      rovingTarget(event.key, index, presets.length) ??
      typeaheadTarget(
        event.key,
        index,
        presets.map((entry) => entry.label),
      );
    if (to === null) return;
    event.preventDefault();
    setActivePreset(to);
    presetButtons.current[to]?.focus();
  };

  const problem = draft.start && draft.end && draft.start > draft.end ? 'End date should be after the start date' : null;
  const inRange = (day: IsoDate) => draft.start !== null && draft.end !== null && day >= draft.start && day <= draft.end;
  const headers = weekdayHeaders(weekStartsOn);

  return (
    <Modal
      open={open}
      title={title}
      onClose={onClose}
      size={columns === 2 ? 'lg' : 'sm'}
      className="date-range-dialog"
      initialFocus={presets.length > 0 ? currentPreset : 0}
      footer={
        <>
          <button
            type="button"
            className="button button-ghost"
            onClick={() => {
              onApply({ start: null, end: null });
              onClose();
            }}
          >
            Clear dates
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={problem !== null}
            onClick={() => {
              onApply(draft);
              onClose();
            }}
          >
            Apply dates
          </button>
        </>
      }
    >
      <div className={`date-range columns-${columns}`}>
        <ul className="date-range-presets" aria-label="Presets">
          {presets.map((preset, index) => (
            <li key={preset.id}>
              <button
                ref={(element) => {
                  presetButtons.current[index] = element;
                }}
                type="button"
                tabIndex={index === activePreset ? 0 : -1}
                aria-pressed={draft.start === preset.range.start && draft.end === preset.range.end}
                className={`button button-ghost date-range-preset${draft.start === preset.range.start && draft.end === preset.range.end ? ' is-current' : ''}`}
                onFocus={() => setActivePreset(index)}
                onKeyDown={(event) => onPresetKeyDown(event, index)}
                // Space is the draft's key (above): the button's own activation on its release is not a click here.
                onKeyUp={(event) => {
                  if (event.key === ' ') event.preventDefault();
                }}
                onClick={() => {
                  onApply(preset.range);
                  onClose();
                }}
              >
                {preset.label}
              </button>
            </li>
          ))}
        </ul>
        <div className="date-range-main">
          <div className="date-range-fields">
            <div className="dt-field">
              <label htmlFor={fromId}>From</label>
              <input
                id={fromId}
                type="date"
                className="dt-input"
                min={min}
                max={max}
                value={draft.start ?? ''}
                aria-describedby={problem ? problemId : undefined}
                onChange={(event) => setDraft({ ...draft, start: event.target.value || null })}
              />
            </div>
            <div className="dt-field">
              <label htmlFor={toId}>To</label>
              <input
                id={toId}
                type="date"
                className="dt-input"
                min={min}
                max={max}
                value={draft.end ?? ''}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? problemId : undefined}
                onChange={(event) => setDraft({ ...draft, end: event.target.value || null })}
              />
            </div>
          </div>
          {problem ? (
            <p id={problemId} className="dt-problem" role="alert">
              {problem}
            </p>
          ) : null}
          <div className="date-range-nav">
            <button
              type="button"
              className="icon-button"
              aria-label="Previous month"
              disabled={monthOf(viewMonth) <= monthOf(min)}
              onClick={() => setViewMonth(shiftMonths(viewMonth, -1))}
            >
              ‹
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label="Next month"
              disabled={monthOf(months[months.length - 1] ?? viewMonth) >= monthOf(max)}
              onClick={() => setViewMonth(shiftMonths(viewMonth, 1))}
            >
              ›
            </button>
          </div>
          <div ref={calendars} className="date-range-calendars">
            {months.map((month) => (
              // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA date picker's grid of days; the arrow keys move the focus between its day buttons
              <table key={month} role="grid" className="calendar" aria-label={monthTitle(month)}>
                <caption className="calendar-title">{monthTitle(month)}</caption>
                <thead>
                  <tr>
                    {headers.map((header) => (
                      <th key={header.long} scope="col" abbr={header.long}>
                        {header.short}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {monthWeeks(month, weekStartsOn).map((week, weekIndex) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a month's weeks are fixed rows: a week's place in its month is its identity
                    <tr key={weekIndex}>
                      {week.map((day, dayIndex) => (
                        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole lint/a11y/useFocusableInteractive: a day of the date grid; the day button inside takes the focus (a roving tabindex)
                        <td key={day ?? `empty-${dayIndex}`} role="gridcell" aria-selected={day ? inRange(day) || day === draft.start : undefined}>
                          {day ? (
                            <button
                              type="button"
                              data-day={day}
                              className={`calendar-day${inRange(day) ? ' in-range' : ''}${day === draft.start || day === draft.end ? ' is-edge' : ''}`}
                              tabIndex={day === active ? 0 : -1}
                              disabled={day < min || day > max}
                              aria-label={formatDate(`${day}T12:00:00`)}
                              aria-pressed={day === draft.start || day === draft.end}
                              onClick={() => choose(day)}
                              onKeyDown={(event) => onDayKeyDown(event, day)}
                            >
                              {Number(day.slice(8))}
                            </button>
                          ) : null}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            ))}
          </div>
          <p className="date-range-hint">{picking === 'end' && draft.start ? 'Now choose the last day.' : 'Choose the first day, then the last.'}</p>
        </div>
      </div>
    </Modal>
  );
}
