import type { Command } from '../command.ts';
import { savedContextLink } from '../context/saved-contexts.ts';

const merchantPagePath = /^\/business\/([^/?#]+)\/merchants\/([^/?#]+)/;

/** The business and merchant ids of a merchant detail path, or null. */
export function merchantOfPath(path: string): { businessId: string; merchantId: string } | null {
  const match = merchantPagePath.exec(path);
  if (!match?.[1] || !match[2]) return null;
  try {
    return { businessId: decodeURIComponent(match[1]), merchantId: decodeURIComponent(match[2]) };
  } catch {
    return null;
  }
}

/** /context/apply with the merchant (it looks names, flags and the first configuration up, and adds it to Recent). */
export function switchToMerchantLink(route: string, businessId: string, merchantId: string, businessName?: string, merchantName?: string): string {
  return savedContextLink(route, {
    businessId,
    merchantId,
    ...(businessName ? { businessName } : {}),
    ...(merchantName ? { merchantName } : {}),
  });
}

/** On a merchant's detail page: make that merchant the working context (and stay on the page). */
export const switchToMerchantCommand: Command = {
  id: 'context.switchToMerchant',
  title: 'Switch context to this merchant',
  section: 'Context',
  keywords: ['merchant', 'context', 'work in', 'select', 'apply'],
  when: (ctx) => {
    if (!ctx.signedIn || ctx.route?.id !== 'merchantDetail') return false;
    const target = merchantOfPath(ctx.route.path);
    return target !== null && target.merchantId !== ctx.context.merchantId;
  },
  run: ({ context, navigate }) => {
    const route = context().route;
    const target = route ? merchantOfPath(route.path) : null;
    if (!route || !target) return undefined;
    return navigate(switchToMerchantLink(route.path, target.businessId, target.merchantId));
  },
};
