// The palette's own ranking (cmdk's filter is off): cheap enough for thousands of commands, and it caps what
// gets rendered. Prefix and word-start matches beat substrings, substrings beat scattered letters; recently
// used commands come first when nothing is typed and get a boost when something is.

export type Rankable = { id: string; title: string; keywords: readonly string[]; section: string };

function subsequence(needle: string, haystack: string): boolean {
  let at = 0;
  for (const char of needle) {
    at = haystack.indexOf(char, at);
    if (at === -1) return false;
    at += 1;
  }
  return true;
}

function tokenScore(token: string, title: string, words: string[], keywords: string[]): number {
  if (title.startsWith(token)) return 100;
  if (words.some((word) => word.startsWith(token))) return 80;
  if (keywords.some((keyword) => keyword.startsWith(token))) return 60;
  if (title.includes(token)) return 50;
  if (keywords.some((keyword) => keyword.includes(token))) return 35;
  // Scattered letters count within one word ('trnsctns') or across word initials ('gtt').
  if (token.length >= 2 && (subsequence(token, words.map((word) => word.charAt(0)).join('')) || words.some((word) => subsequence(token, word)))) return 15;
  return 0;
}

/** Score of one item for a query, 0 when it does not match every typed word. */
export function scoreCommand(item: Rankable, query: string): number {
  const tokens = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (tokens.length === 0) return 1;
  const title = item.title.toLowerCase();
  const words = title.split(/[\s/›·,.-]+/);
  const keywords = [...item.keywords, item.section].map((keyword) => keyword.toLowerCase());
  let total = 0;
  for (const token of tokens) {
    const score = tokenScore(token, title, words, keywords);
    if (score === 0) return 0;
    total += score;
  }
  if (title === query.toLowerCase().trim()) total += 50;
  return total;
}

export function rankCommands<T extends Rankable>(items: readonly T[], query: string, recent: readonly string[], limit: number): T[] {
  const recency = new Map(recent.map((id, index) => [id, index]));
  const trimmed = query.trim();
  const scored: { item: T; score: number; order: number }[] = [];
  items.forEach((item, order) => {
    const score = scoreCommand(item, trimmed);
    if (score === 0) return;
    const rank = recency.get(item.id);
    const boost = rank === undefined ? 0 : trimmed ? 30 - rank : 1000 - rank;
    scored.push({ item, score: score + boost, order });
  });
  // Among equal matches, what can be done here comes before going somewhere else ('schedule' on a statement:
  // 'Schedule statement…' before 'Scheduled statements and reports').
  const navigates = (item: T) => (item.section === 'Navigation' ? 1 : 0);
  scored.sort((a, b) => b.score - a.score || navigates(a.item) - navigates(b.item) || a.order - b.order);
  return scored.slice(0, limit).map((entry) => entry.item);
}
