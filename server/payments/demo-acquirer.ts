// The demo acquirer: the one place that decides what a test card gets, wherever a card is charged (the shopper's
// hosted payment page, the virtual terminal, and so the gateway's jobs paid on that page). This portal has no real
// acquirer; the cards below are card schemes' and acquirers' published test numbers.
//
// - The published test cards are approved with any future expiry and any CVC. The seed's payments carry the same
//   cards (server/seed/seed-bulk.ts imports the list from here), so a number the demo world shows is one it approves.
// - The Mastercard 2-series test range 2223 00… is approved too (the published 2223 0031 2200 3222 and the seed's
//   saved cards); a vaulted card of that range is recognised by the first six digits its masked number keeps.
// - The named declining cards always decline, with their reason.
// - Every other number declines as not accepted by the demo acquirer.
import { unknownCardDeclineReason } from '../../src/contract/virtual-terminal.ts';
import type { CardKeys } from '../cards/card-keys.ts';
import { cardFingerprints } from '../cards/card-seal.ts';

/** Approved test card numbers (Visa, Visa debit, Mastercard, Mastercard 2-series, American Express, Discover, JCB). */
export const publishedTestCards: readonly string[] = [
  '4111111111111111',
  '4242424242424242',
  '4000056655665556',
  '4012888888881881',
  '5555555555554444',
  '5200828282828210',
  '2223003122003222',
  '5105105105105100',
  '378282246310005',
  '371449635398431',
  '6011111111111117',
  '3566002020360505',
];
/** The first six digits of the approved Mastercard 2-series test range. */
export const approvedTestRange = '222300';
/** Test cards that always decline, with the acquirer's reason. */
export const decliningTestCards: Readonly<Record<string, string>> = {
  '4000000000009995': 'Insufficient funds',
  '4000000000003220': '3-D Secure required',
  '4000000000000002': 'Do not honour',
  '4000000000000069': 'Expired card',
};
const threeDSecureCard = '4000000000003220';

/**
 * Where the card is charged: 'moto' (the virtual terminal: an agent types it, no cardholder authentication is
 * possible) or 'hostedPage' (the shopper's page, which has no 3-D Secure step either).
 */
export type CardChannel = 'moto' | 'hostedPage';

/** The demo acquirer's answer for a card number (digits only): null when approved, else the decline reason. */
export function declineReasonOf(digits: string, channel: CardChannel): string | null {
  if (publishedTestCards.includes(digits) || digits.startsWith(approvedTestRange)) return null;
  const reason = decliningTestCards[digits];
  if (reason === undefined) return unknownCardDeclineReason;
  if (digits === threeDSecureCard)
    return channel === 'moto' ? `${reason}: not possible for a MOTO payment` : `${reason}: this page cannot authenticate the cardholder`;
  return reason;
}

/**
 * The answer for a vaulted card, recognised by its keyed fingerprint among the test cards or, for the approved test
 * range, by the first six digits its masked number keeps. The vault row is never opened.
 */
export function vaultedCardDeclineReason(
  keys: CardKeys,
  merchantId: string,
  vaulted: { fingerprint: string; masked: string },
  channel: CardChannel,
): string | null {
  for (const digits of [...publishedTestCards, ...Object.keys(decliningTestCards)]) {
    if (cardFingerprints(keys, merchantId, digits).includes(vaulted.fingerprint)) return declineReasonOf(digits, channel);
  }
  return vaulted.masked.startsWith(approvedTestRange) ? null : unknownCardDeclineReason;
}
