// The watch list contract's schemas (arktype).
import { type } from 'arktype';
import { ticketPriorities } from './enumerations.ts';
import { watchEntryStatuses, watchSignals } from './watch-list.ts';

const isoDateTime = 'string.date.iso';

export const watchSignalValue = type({ signal: type.enumerated(...watchSignals), value: 'number', threshold: 'number' });

export const watchListEntry = type({
  merchantId: 'string',
  businessId: 'string',
  merchantName: 'string',
  businessName: 'string',
  score: 'number',
  status: type.enumerated(...watchEntryStatuses),
  signals: watchSignalValue.array(),
  trend: 'number[]',
  firstFlaggedUtc: isoDateTime,
  lastComputedUtc: isoDateTime,
  version: 'number',
  /** the support ticket the entry was escalated to, null until escalated */
  ticketId: 'string | null',
});
export type WatchListEntry = typeof watchListEntry.infer;
export const watchListList = type({ results: watchListEntry.array(), numberOfResults: 'number', signalsRefreshedUtc: type(isoDateTime).or('null') });
export type WatchListList = typeof watchListList.infer;

export const watchListNote = type({ noteId: 'string', author: 'string', text: 'string', createdUtc: isoDateTime });
export const watchListEntryDetail = watchListEntry.merge({
  notes: watchListNote.array(),
  statusChangedBy: 'string | null',
  statusChangedUtc: type(isoDateTime).or('null'),
});
export type WatchListEntryDetail = typeof watchListEntryDetail.infer;

export const watchStatusBody = type({ status: type.enumerated(...watchEntryStatuses), version: 'number.integer >= 1', '+': 'reject' });
export const watchNoteBody = type({ text: '0 < string <= 2000', '+': 'reject' });
/** Escalate to a ticket: the entry's version (409 when stale) and, optionally, the ticket's priority. */
export const watchEscalateBody = type({ version: 'number.integer >= 1', 'priority?': type.enumerated(...ticketPriorities), '+': 'reject' });
export const watchEscalation = type({ ticketId: 'string', entry: watchListEntry });
