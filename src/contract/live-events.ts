// The live events stream's parameters (GET /api/portal/events, server/events/event-routes.ts), checked by the server
// and its OpenAPI document and asked for by the tab (src/app/live-events.ts).

/** An event's id, as Last-Event-ID (header or ?lastEventId=) names it. */
export const eventIdPattern = /^\d{1,15}$/;

/** ?replayMs=: how far back a stream with no event id asks to be caught up, in milliseconds. */
export const replayMsPattern = /^\d{1,6}$/;

/** The longest catch-up the server sends (a longer one is cut to it); a tab away longer refreshes what it shows. */
export const maxReplayMs = 5 * 60_000;
