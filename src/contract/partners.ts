// Partners and their commission plans: the lists' declared filters and sorts, the commission rule's
// condition values, and the pure helpers both sides share (a card's type from its masked number, a rule's label).
import type { FilterDeclaration, ListQuerySpec } from './list-query.ts';

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;

export const partnerFilters = {
  name: { kind: 'string', operators: ['eq'] },
  id: { kind: { pattern: idPattern, description: 'a partner id' }, operators: ['eq'] },
} as const satisfies Record<string, FilterDeclaration>;

/** GET /partners: name ([eq] part of the name, case-insensitive), id; sort name | id | businesses. */
export const partnerListSpec: ListQuerySpec = {
  filters: partnerFilters,
  sortable: ['name', 'id', 'businesses'],
  defaultSort: [{ field: 'name', descending: false }],
};

export const partnerBusinessFilters = {
  name: { kind: 'string', operators: ['eq'] },
  id: { kind: { pattern: idPattern, description: 'a business id' }, operators: ['eq'] },
  live: { kind: 'boolean', operators: ['eq'] },
} as const satisfies Record<string, FilterDeclaration>;

/** GET /partners/{id}/businesses: the partner's businesses, as GET /businesses names them. */
export const partnerBusinessListSpec: ListQuerySpec = {
  filters: partnerBusinessFilters,
  sortable: ['name', 'id'],
  defaultSort: [{ field: 'name', descending: false }],
};

/**
 * The channel a commission rule may name: the transaction's channel, except that an order taken by phone or mail
 * (the virtual terminal's MOTO orders and payment links) counts as Moto whatever channel carried it.
 */
export const commissionChannels = ['Gateway', 'Moto', 'Acquiring', 'Chp'] as const;
export type CommissionChannel = (typeof commissionChannels)[number];
export const commissionChannelLabels: Record<CommissionChannel, string> = {
  Gateway: 'Gateway (e-commerce)',
  Moto: 'MOTO (mail and telephone order)',
  Acquiring: 'Acquiring',
  Chp: 'Chp',
};

/** The card type a rule may name: the scheme, read from the masked number's first digits. */
export const commissionCardTypes = ['Visa', 'Mastercard', 'American Express', 'Other card'] as const;
export type CommissionCardType = (typeof commissionCardTypes)[number];

/** A card's type from its masked number (or its first two digits); null without a card. */
export function cardTypeOf(maskedOrPrefix: string | null | undefined): CommissionCardType | null {
  if (!maskedOrPrefix) return null;
  if (/^4/.test(maskedOrPrefix)) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(maskedOrPrefix)) return 'Mastercard';
  if (/^3[47]/.test(maskedOrPrefix)) return 'American Express';
  return 'Other card';
}

/** Commission plan status from its validity and today (UTC dates, 'YYYY-MM-DD', end inclusive). */
export function commissionPlanStatus(validFrom: string, validTo: string | null, today: string): 'Scheduled' | 'Active' | 'Ended' {
  if (today < validFrom) return 'Scheduled';
  if (validTo !== null && today > validTo) return 'Ended';
  return 'Active';
}

/** At most this many months of commission earned are computed per request (newest first). */
export const maxCommissionMonths = 24;
/** The partner detail reads at most this many businesses per page; the declines screen breaks down at most these. */
export const maxPartnerBusinessesBrokenDown = 100;

// ── editing a commission plan (PUT /partners/{id}/commission-plans/{planId}) ──
// The server and the form run the same checks, worded with the spec's generic templates (context document, §5).

/** A plan holds at most this many rules. */
export const maxCommissionRules = 50;
export const maxCommissionPlanNameLength = 100;
export const maxCommissionRuleDescriptionLength = 200;
/** Priorities run from 1 to this; they are unique within a plan. */
export const maxCommissionPriority = 9999;
/** 100 % of the fee. */
export const maxCommissionBasisPoints = 10_000;
/** A fixed amount per transaction: at most 1,000.00 in a two-decimal currency. */
export const maxCommissionFixedMinor = 100_000;
/** A volume band's bound: at most 100,000,000,000.00 in a two-decimal currency. */
export const maxCommissionVolumeMinor = 10_000_000_000_000;

export type CommissionRuleEdit = {
  priority: number;
  description: string;
  volumeFromMinor: number;
  volumeToMinor: number | null;
  percentageBasisPoints: number;
  fixedMinor: number;
  channel: string | null;
  currency: string | null;
  paymentMethod: string | null;
  cardType: string | null;
};
export type CommissionPlanEdit = { name: string; validFrom: string; validTo: string | null; rules: CommissionRuleEdit[] };

const isoDatePattern = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (value: string) => isoDatePattern.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
const wholeBetween = (value: number, min: number, max: number) => Number.isInteger(value) && value >= min && value <= max;

/** Labels of a rule's fields, as the form shows them and the server's messages name them. */
export const commissionRuleFieldLabels = {
  priority: 'Priority',
  description: 'Description',
  volumeFromMinor: 'Volume from',
  volumeToMinor: 'Volume to',
  percentageBasisPoints: 'Percentage of the fee',
  fixedMinor: 'Fixed amount',
  channel: 'Channel',
  currency: 'Currency',
  paymentMethod: 'Payment method',
  cardType: 'Card type',
} as const satisfies Record<keyof CommissionRuleEdit, string>;

/**
 * A plan edit's problems by field: 'name', 'validFrom', 'validTo', 'rules', and 'rules.{index}.{field}' for a rule's
 * fields (index from 0). Empty when valid. `paymentMethods` is the set a rule may name.
 */
export function checkCommissionPlanEdit(edit: CommissionPlanEdit, paymentMethods: readonly string[]): Record<string, string> {
  const errors: Record<string, string> = {};
  const name = edit.name.trim();
  if (name === '') errors.name = 'Name is required';
  else if (name.length > maxCommissionPlanNameLength) errors.name = `Name may have ${maxCommissionPlanNameLength} characters maximum`;
  if (edit.validFrom === '') errors.validFrom = 'Valid from is required';
  else if (!isRealDate(edit.validFrom)) errors.validFrom = 'Valid from is invalid';
  if (edit.validTo !== null) {
    if (!isRealDate(edit.validTo)) errors.validTo = 'Valid to is invalid';
    else if (!errors.validFrom && edit.validTo < edit.validFrom) errors.validTo = `Valid to should be above ${edit.validFrom}`;
  }
  if (edit.rules.length === 0) errors.rules = 'Use at least one rule';
  else if (edit.rules.length > maxCommissionRules) errors.rules = `Rules should be between 1 and ${maxCommissionRules}`;
  const priorities = new Map<number, number>();
  for (const rule of edit.rules) priorities.set(rule.priority, (priorities.get(rule.priority) ?? 0) + 1);
  edit.rules.forEach((rule, index) => {
    const at = (field: keyof CommissionRuleEdit, message: string) => {
      errors[`rules.${index}.${field}`] = message;
    };
    const label = commissionRuleFieldLabels;
    if (!wholeBetween(rule.priority, 1, maxCommissionPriority)) at('priority', `${label.priority} should be between 1 and ${maxCommissionPriority}`);
    else if ((priorities.get(rule.priority) ?? 0) > 1) at('priority', `${label.priority} is not unique`);
    const description = rule.description.trim();
    if (description === '') at('description', `${label.description} is required`);
    else if (description.length > maxCommissionRuleDescriptionLength)
      at('description', `${label.description} may have ${maxCommissionRuleDescriptionLength} characters maximum`);
    if (!wholeBetween(rule.percentageBasisPoints, 0, maxCommissionBasisPoints))
      at('percentageBasisPoints', `${label.percentageBasisPoints} should be between 0 and 100`);
    if (!wholeBetween(rule.fixedMinor, 0, maxCommissionFixedMinor)) at('fixedMinor', `${label.fixedMinor} should be between 0 and ${maxCommissionFixedMinor}`);
    if (!wholeBetween(rule.volumeFromMinor, 0, maxCommissionVolumeMinor))
      at('volumeFromMinor', `${label.volumeFromMinor} should be between 0 and ${maxCommissionVolumeMinor}`);
    if (rule.volumeToMinor !== null) {
      if (!wholeBetween(rule.volumeToMinor, 1, maxCommissionVolumeMinor))
        at('volumeToMinor', `${label.volumeToMinor} should be between 1 and ${maxCommissionVolumeMinor}`);
      else if (rule.volumeToMinor <= rule.volumeFromMinor) at('volumeToMinor', `${label.volumeToMinor} should be above ${rule.volumeFromMinor}`);
    }
    if (rule.channel !== null && !(commissionChannels as readonly string[]).includes(rule.channel)) at('channel', `${label.channel} is invalid`);
    if (rule.currency !== null && !/^[A-Z]{3}$/.test(rule.currency)) at('currency', `${label.currency} is invalid`);
    if (rule.paymentMethod !== null && !paymentMethods.includes(rule.paymentMethod)) at('paymentMethod', `${label.paymentMethod} is invalid`);
    if (rule.cardType !== null && !(commissionCardTypes as readonly string[]).includes(rule.cardType)) at('cardType', `${label.cardType} is invalid`);
  });
  return errors;
}

/** A field's problem as one sentence naming the rule: 'Rule 2: Priority is not unique'. */
export function commissionEditMessage(field: string, message: string): string {
  const rule = /^rules\.(\d+)\./.exec(field);
  return rule ? `Rule ${Number(rule[1]) + 1}: ${message}` : message;
}

/** '12.5' (per cent) → 1250 basis points; NaN when not a number with at most two decimals. */
export function basisPointsOfPercent(text: string): number {
  const trimmed = text.trim();
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(trimmed)) return Number.NaN;
  const [whole = '0', fraction = ''] = trimmed.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** 1250 → '12.5'. */
export const percentOfBasisPoints = (basisPoints: number): string => String(basisPoints / 100);
