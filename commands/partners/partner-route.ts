// Which partner (and business) the focused screen is about, read from its path: pure, tested as a table.
import type { CommandContext } from '../command.ts';

/** '/partners/P1/…' → 'P1' (decoded); the overview '/partners' and anything else → null. */
export function partnerIdOfPath(path: string | undefined): string | null {
  const match = /^\/partners\/([^/?#]+)/.exec(path ?? '');
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

/** '/partners/P1/business/B1/…' → { partnerId: 'P1', businessId: 'B1' }. */
export function partnerBusinessOfPath(path: string | undefined): { partnerId: string; businessId: string } | null {
  const match = /^\/partners\/([^/?#]+)\/business\/([^/?#]+)/.exec(path ?? '');
  if (!match?.[1] || !match[2]) return null;
  try {
    return { partnerId: decodeURIComponent(match[1]), businessId: decodeURIComponent(match[2]) };
  } catch {
    return null;
  }
}

export const focusedPartnerId = (ctx: CommandContext) => partnerIdOfPath(ctx.route?.path);
export const partnerHref = (partnerId: string) => `/partners/${encodeURIComponent(partnerId)}`;
