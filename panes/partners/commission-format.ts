// How a commission rule reads to a person (pure: tested as a table of cases). Band amounts are in the minor units
// of the rule's currency; a rule naming no currency reads them in each fee's own currency.
import type { CommissionRule } from '../../src/contract/partner-schemas.ts';
import { commissionChannelLabels, type CommissionChannel } from '../../src/contract/partners.ts';
import { formatMinorUnits, formatPercent } from '../../src/format/money.ts';
import { formatPaymentMethod } from '../../src/format/payment-method.ts';

const amount = (minor: number, currency: string | null) => (currency ? formatMinorUnits(minor, currency) : `${minor.toLocaleString('en-GB')} minor units`);

/** '£50,000.00 to £250,000.00', 'from £250,000.00', 'below £50,000.00', 'any volume'. */
export function describeBand(rule: Pick<CommissionRule, 'volumeFromMinor' | 'volumeToMinor' | 'currency'>): string {
  const { volumeFromMinor: from, volumeToMinor: to, currency } = rule;
  if (from === 0 && to === null) return 'Any volume';
  if (to === null) return `From ${amount(from, currency)}`;
  if (from === 0) return `Below ${amount(to, currency)}`;
  return `${amount(from, currency)} to below ${amount(to, currency)}`;
}

/** '25% of the fee + £0.02 a transaction', 'No commission'. */
export function describeEarning(rule: Pick<CommissionRule, 'percentageBasisPoints' | 'fixedMinor' | 'currency'>): string {
  const parts: string[] = [];
  if (rule.percentageBasisPoints > 0) parts.push(`${formatPercent(rule.percentageBasisPoints / 10_000)} of the fee`);
  if (rule.fixedMinor > 0) parts.push(`${amount(rule.fixedMinor, rule.currency)} a transaction`);
  return parts.length === 0 ? 'No commission' : parts.join(' + ');
}

/** 'MOTO (mail and telephone order), GBP, Card, Visa' or 'All transactions'. */
export function describeConditions(rule: Pick<CommissionRule, 'channel' | 'currency' | 'paymentMethod' | 'cardType'>): string {
  const parts = [
    rule.channel ? commissionChannelLabels[rule.channel as CommissionChannel] : null,
    rule.currency,
    rule.paymentMethod ? formatPaymentMethod(rule.paymentMethod) : null,
    rule.cardType,
  ].filter((part): part is string => part !== null);
  return parts.length === 0 ? 'All transactions' : parts.join(', ');
}

/** 'YYYY-MM' → 'March 2026'. */
export function formatMonth(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number);
  if (!year || !monthNumber) return month;
  return new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(year, monthNumber - 1, 1)));
}
