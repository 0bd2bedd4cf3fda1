// Is the grant an access token was issued under still there? A JWT access token is valid until its exp on its own;
// sign-out, a replayed refresh token, an inactivity sign-out or a locked account revoke its grant in the database
// (every node sees that), and from then on its tokens are refused. Answers are remembered for a few seconds per
// node, so a revoked session stops working within that time everywhere at the cost of one look-up per grant and
// interval, not one per call.

export type GrantLookup = (grantId: string) => Promise<boolean>;

export type LiveGrantOptions = {
  /** how long an answer is trusted */
  ttlMs?: number;
  /** most grants remembered; past it the oldest entry goes */
  maxEntries?: number;
  now?: () => number;
};

export const liveGrantTtlMs = 5_000;

export function liveGrantChecker(lookup: GrantLookup, options: LiveGrantOptions = {}): GrantLookup {
  const ttlMs = options.ttlMs ?? liveGrantTtlMs;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const answers = new Map<string, { live: boolean; untilMs: number }>();
  return async (grantId) => {
    const known = answers.get(grantId);
    if (known && now() < known.untilMs) return known.live;
    const live = await lookup(grantId);
    answers.delete(grantId);
    if (answers.size >= maxEntries) {
      const oldest = answers.keys().next().value;
      if (oldest !== undefined) answers.delete(oldest);
    }
    // A revoked grant never comes back: remember that for as long as any of its tokens could still be presented.
    answers.set(grantId, { live, untilMs: now() + (live ? ttlMs : 15 * 60_000) });
    return live;
  };
}
