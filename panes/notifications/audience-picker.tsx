// Who an announcement is for, picked by name: type part of a business's or partner's name (or id), ↑/↓ choose,
// Enter adds it as a chip; Backspace in the empty field removes the last chip, ← reaches the chips, and Backspace or
// Delete on a chip removes it. The notification still stores ids (the API's audience: partnerIds, businessIds); the
// names come from GET /notifications/audience. A line under the picker says who will read it.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import type { AudienceCandidate } from '../../src/contract/notification-schemas.ts';
import { notificationQueries } from '../../src/api/notification-queries.ts';

export type AudienceIds = { partnerIds: string[]; businessIds: string[] };
type Candidate = AudienceCandidate;

const audienceQueries = {
  search: (term: string) =>
    queryOptions({
      queryKey: [...notificationQueries.all, 'audience', 'search', term] as const,
      queryFn: async ({ signal }) =>
        (await validate('audienceCandidateList', await api.get<unknown>('/notifications/audience', { query: { term }, signal }))).results,
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    }),
  names: (ids: readonly string[]) =>
    queryOptions({
      queryKey: [...notificationQueries.all, 'audience', 'names', [...ids].sort().join(',')] as const,
      queryFn: async ({ signal }) =>
        (await validate('audienceCandidateList', await api.get<unknown>('/notifications/audience', { query: { ids: ids.join(',') }, signal }))).results,
      staleTime: 60_000,
    }),
};

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The line that says who reads a notification. */
export function audienceSummary(viewRestriction: 'allUsers' | 'internalUsers', audience: AudienceIds): string {
  if (viewRestriction === 'internalUsers') return 'Internal users only.';
  const { businessIds, partnerIds } = audience;
  if (businessIds.length === 0 && partnerIds.length === 0) return 'Every user.';
  const parts = [
    businessIds.length > 0 ? `Users of ${plural(businessIds.length, 'business', 'businesses')} and their partners' users` : null,
    partnerIds.length > 0 ? `${businessIds.length > 0 ? 'the' : 'The'} partner-level users of ${plural(partnerIds.length, 'partner', 'partners')}` : null,
  ].filter((part): part is string => part !== null);
  return `${parts.join(', and ')}. Internal users see it too.`;
}

const keyOf = (candidate: Pick<Candidate, 'kind' | 'id'>) => `${candidate.kind}:${candidate.id}`;
const detailOf = (candidate: Candidate) =>
  candidate.kind === 'partner' ? `Partner ${candidate.id}` : `Business ${candidate.id}${candidate.partnerName ? ` of ${candidate.partnerName}` : ''}`;

function useDebounced(value: string, delayMs: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

export function AudiencePicker({ value, onChange, describedBy }: { value: AudienceIds; onChange: (next: AudienceIds) => void; describedBy?: string }) {
  const ids = { input: useId(), list: useId(), chips: useId() };
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const chipButtons = useRef<(HTMLButtonElement | null)[]>([]);
  const term = useDebounced(text.trim(), 250);
  const search = useQuery({ ...audienceQueries.search(term), enabled: term.length >= 1 });
  const chosenIds = [...value.partnerIds, ...value.businessIds];
  const names = useQuery({ ...audienceQueries.names(chosenIds), enabled: chosenIds.length > 0 });
  // Names learnt from the searches too, so a chip added is named at once.
  const known = useRef(new Map<string, Candidate>());
  for (const candidate of [...(names.data ?? []), ...(search.data ?? [])]) known.current.set(keyOf(candidate), candidate);
  const chips = [
    ...value.businessIds.map((id) => known.current.get(keyOf({ kind: 'business', id })) ?? { kind: 'business' as const, id, name: id, partnerName: null }),
    ...value.partnerIds.map((id) => known.current.get(keyOf({ kind: 'partner', id })) ?? { kind: 'partner' as const, id, name: id, partnerName: null }),
  ];
  const chosen = new Set(chips.map(keyOf));
  const options = text.trim() === '' || (term !== text.trim() && !search.data) ? [] : (search.data ?? []).filter((candidate) => !chosen.has(keyOf(candidate)));
  const expanded = open && text.trim() !== '';
  const activeIndex = Math.min(active, Math.max(0, options.length - 1));

  const add = (candidate: Candidate) => {
    onChange(
      candidate.kind === 'partner'
        ? { ...value, partnerIds: [...value.partnerIds, candidate.id] }
        : { ...value, businessIds: [...value.businessIds, candidate.id] },
    );
    setText('');
    setActive(0);
  };
  const remove = (index: number) => {
    const chip = chips[index];
    if (!chip) return;
    onChange(
      chip.kind === 'partner'
        ? { ...value, partnerIds: value.partnerIds.filter((id) => id !== chip.id) }
        : { ...value, businessIds: value.businessIds.filter((id) => id !== chip.id) },
    );
    // Focus stays in the picker: the next chip, else the previous, else the field.
    setTimeout(() => (chipButtons.current[index < chips.length - 1 ? index : index - 1] ?? input.current)?.focus(), 0);
  };
  const onInputKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (options.length > 0) setActive((activeIndex + (event.key === 'ArrowDown' ? 1 : -1) + options.length) % options.length);
    } else if (event.key === 'Enter') {
      // Enter adds, never submits the form; with nothing on offer it does nothing.
      event.preventDefault();
      const candidate = options[activeIndex];
      if (expanded && candidate) add(candidate);
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    } else if (
      (event.key === 'Backspace' && text === '') ||
      (event.key === 'ArrowLeft' && event.currentTarget.selectionStart === 0 && event.currentTarget.selectionEnd === 0)
    ) {
      if (chips.length === 0) return;
      event.preventDefault();
      if (event.key === 'Backspace') remove(chips.length - 1);
      else chipButtons.current[chips.length - 1]?.focus();
    }
  };
  const onChipKey = (index: number) => (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'Backspace' || event.key === 'Delete') {
      event.preventDefault();
      remove(index);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      chipButtons.current[Math.max(0, index - 1)]?.focus();
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      (chipButtons.current[index + 1] ?? input.current)?.focus();
    }
  };
  const status = !expanded
    ? ''
    : term !== text.trim() || search.isFetching
      ? 'Looking up names…'
      : options.length === 0
        ? 'No business or partner of that name.'
        : `${options.length} found: ↑ ↓ choose, Enter adds.`;

  return (
    <div className="audience-picker">
      {chips.length > 0 ? (
        <ul className="audience-chips" id={ids.chips} aria-label="Chosen businesses and partners">
          {chips.map((chip, index) => (
            <li key={keyOf(chip)}>
              <button
                ref={(element) => {
                  chipButtons.current[index] = element;
                }}
                type="button"
                className="audience-chip"
                aria-label={`${chip.name}, ${chip.kind}: remove`}
                title="Backspace or Delete removes it"
                onClick={() => remove(index)}
                onKeyDown={onChipKey(index)}
              >
                {chip.name} <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <label htmlFor={ids.input}>Add a business or partner</label>
      <input
        ref={input}
        id={ids.input}
        className="dt-input audience-input"
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={ids.list}
        aria-activedescendant={expanded && options[activeIndex] ? `${ids.list}-${activeIndex}` : undefined}
        aria-describedby={describedBy}
        placeholder="Type a name"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(0);
        }}
        onKeyDown={onInputKey}
        onBlur={() => setOpen(false)}
      />
      {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA combobox pattern's listbox, a list of options */}
      <ul id={ids.list} role="listbox" aria-label="Businesses and partners" className="audience-options" hidden={!expanded || options.length === 0}>
        {options.map((candidate, index) => (
          // biome-ignore lint/a11y/useFocusableInteractive: an option of the combobox's listbox: the focus stays in the field (aria-activedescendant)
          <li
            key={keyOf(candidate)}
            id={`${ids.list}-${index}`}
            // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: an option of the combobox's listbox, a list item in the markup
            role="option"
            aria-selected={index === activeIndex}
            className="audience-option"
            onMouseDown={(event) => {
              event.preventDefault();
              add(candidate);
            }}
          >
            <span className="audience-option-name">{candidate.name}</span> <span className="audience-option-detail">{detailOf(candidate)}</span>
          </li>
        ))}
      </ul>
      <p className="notification-hint" role="status">
        {status}
      </p>
    </div>
  );
}
