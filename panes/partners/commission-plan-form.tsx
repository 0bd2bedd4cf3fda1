// The commission plan's edit form (finance admins, Shift+E on the plan): its name, validity and rules, each rule a
// fieldset with its conditions, volume band and what it earns. The checks are the server's own
// (checkCommissionPlanEdit), shown under each field once the form was submitted; a line under each rule reads it back
// as the plan's table will ('25% of the fee + £0.02 a transaction').
import { type Ref, useId } from 'react';
import { paymentMethods } from '../../src/contract/enumerations.ts';
import type { CommissionPlanDetail, CommissionRule } from '../../src/contract/partner-schemas.ts';
import {
  basisPointsOfPercent,
  checkCommissionPlanEdit,
  commissionCardTypes,
  commissionChannelLabels,
  commissionChannels,
  type CommissionPlanEdit,
  commissionRuleFieldLabels as labels,
  type CommissionRuleEdit,
  maxCommissionPlanNameLength,
  maxCommissionRuleDescriptionLength,
  maxCommissionRules,
  percentOfBasisPoints,
} from '../../src/contract/partners.ts';
import { formatPaymentMethod } from '../../src/format/payment-method.ts';
import { SelectField, TextField } from '../../src/ui/form-field.tsx';
import { describeBand, describeConditions, describeEarning } from './commission-format.ts';

export type RuleDraft = {
  /** React's key: stays with the rule while others are added or removed */
  key: string;
  priority: string;
  description: string;
  volumeFrom: string;
  volumeTo: string;
  percent: string;
  fixed: string;
  channel: string;
  currency: string;
  paymentMethod: string;
  cardType: string;
};
export type PlanDraft = { name: string; validFrom: string; validTo: string; rules: RuleDraft[] };

let nextRuleKey = 0;
const ruleKey = () => `rule-${nextRuleKey++}`;

export function planDraftOf(plan: CommissionPlanDetail): PlanDraft {
  return {
    name: plan.name,
    validFrom: plan.validFrom,
    validTo: plan.validTo ?? '',
    rules: plan.rules.map((rule, index) => ({
      key: `saved-${index}`,
      priority: String(rule.priority),
      description: rule.description,
      volumeFrom: String(rule.volumeFromMinor),
      volumeTo: rule.volumeToMinor === null ? '' : String(rule.volumeToMinor),
      percent: percentOfBasisPoints(rule.percentageBasisPoints),
      fixed: String(rule.fixedMinor),
      channel: rule.channel ?? '',
      currency: rule.currency ?? '',
      paymentMethod: rule.paymentMethod ?? '',
      cardType: rule.cardType ?? '',
    })),
  };
}

/** A new rule below the others: the next priority in tens, earning nothing until filled in. */
export function newRuleDraft(rules: readonly RuleDraft[]): RuleDraft {
  const highest = Math.max(0, ...rules.map((rule) => Number(rule.priority)).filter(Number.isFinite));
  return {
    key: ruleKey(),
    priority: String(Math.floor(highest / 10) * 10 + 10),
    description: '',
    volumeFrom: '0',
    volumeTo: '',
    percent: '0',
    fixed: '0',
    channel: '',
    currency: '',
    paymentMethod: '',
    cardType: '',
  };
}

/** Whole numbers only ('' reads as 0 where a field has a default); anything else is NaN, which the checks name. */
const whole = (text: string, empty: number) => {
  const trimmed = text.trim();
  if (trimmed === '') return empty;
  return /^\d{1,16}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
};

/** The draft as the API takes it. */
export function planEditOf(draft: PlanDraft): CommissionPlanEdit {
  return {
    name: draft.name.trim(),
    validFrom: draft.validFrom.trim(),
    validTo: draft.validTo.trim() || null,
    rules: draft.rules.map(
      (rule): CommissionRuleEdit => ({
        priority: whole(rule.priority, Number.NaN),
        description: rule.description.trim(),
        volumeFromMinor: whole(rule.volumeFrom, 0),
        volumeToMinor: rule.volumeTo.trim() === '' ? null : whole(rule.volumeTo, Number.NaN),
        percentageBasisPoints: rule.percent.trim() === '' ? 0 : basisPointsOfPercent(rule.percent),
        fixedMinor: whole(rule.fixed, 0),
        channel: rule.channel || null,
        currency: rule.currency.trim().toUpperCase() || null,
        paymentMethod: rule.paymentMethod || null,
        cardType: rule.cardType || null,
      }),
    ),
  };
}

export const checkPlanDraft = (draft: PlanDraft) => checkCommissionPlanEdit(planEditOf(draft), paymentMethods);

const anyOption = { value: '', label: 'Any' };
const channelOptions = [anyOption, ...commissionChannels.map((channel) => ({ value: channel, label: commissionChannelLabels[channel] }))];
const methodOptions = [anyOption, ...paymentMethods.map((method) => ({ value: method, label: formatPaymentMethod(method) }))];
const cardTypeOptions = [anyOption, ...commissionCardTypes.map((cardType) => ({ value: cardType, label: cardType }))];

type Props = {
  draft: PlanDraft;
  onChange: (draft: PlanDraft) => void;
  /** the problems to show (none until the form was submitted once) */
  errors: Record<string, string>;
  firstField: Ref<HTMLInputElement>;
};

export function CommissionPlanFields({ draft, onChange, errors, firstField }: Props) {
  const rulesHeading = useId();
  const setRule = (index: number, change: Partial<RuleDraft>) =>
    onChange({ ...draft, rules: draft.rules.map((rule, at) => (at === index ? { ...rule, ...change } : rule)) });
  const removeRule = (index: number) => onChange({ ...draft, rules: draft.rules.filter((_rule, at) => at !== index) });
  const edit = planEditOf(draft);
  return (
    <>
      <div className="form-grid">
        <TextField
          inputRef={firstField}
          label="Name"
          required
          maxLength={maxCommissionPlanNameLength}
          value={draft.name}
          error={errors.name}
          onChange={(name) => onChange({ ...draft, name })}
        />
        <TextField
          label="Valid from"
          type="date"
          required
          value={draft.validFrom}
          error={errors.validFrom}
          onChange={(validFrom) => onChange({ ...draft, validFrom })}
        />
        <TextField
          label="Valid to"
          type="date"
          value={draft.validTo}
          error={errors.validTo}
          hint="Leave empty for an open-ended plan."
          onChange={(validTo) => onChange({ ...draft, validTo })}
        />
      </div>
      <h3 id={rulesHeading}>Rules</h3>
      <p className="partners-note">
        The first rule that matches a fee earns, lowest priority first. Amounts are in minor units (pence, cents) of the rule's currency, or of each fee's own
        currency when the rule names none. Shift+N adds a rule.
      </p>
      {errors.rules ? (
        <p className="form-field-error" role="alert">
          {errors.rules}
        </p>
      ) : null}
      <div role="group" aria-labelledby={rulesHeading} className="commission-rules">
        {draft.rules.map((rule, index) => {
          const error = (field: keyof CommissionRuleEdit) => errors[`rules.${index}.${field}`];
          const terms = edit.rules[index];
          const readBack =
            terms &&
            Number.isFinite(terms.percentageBasisPoints) &&
            Number.isFinite(terms.fixedMinor) &&
            Number.isFinite(terms.volumeFromMinor) &&
            (terms.volumeToMinor === null || Number.isFinite(terms.volumeToMinor)) &&
            (terms.currency === null || /^[A-Z]{3}$/.test(terms.currency))
              ? `${describeConditions({ ...terms, channel: terms.channel as CommissionRule['channel'], cardType: terms.cardType as CommissionRule['cardType'] })}; ${describeBand(terms).toLowerCase()}; ${describeEarning(terms)}`
              : null;
          return (
            <fieldset key={rule.key} className="commission-rule">
              <legend>
                Rule {index + 1}
                {rule.description.trim() ? `: ${rule.description.trim()}` : ''}
              </legend>
              <div className="form-grid">
                <TextField
                  label={labels.priority}
                  required
                  inputMode="numeric"
                  value={rule.priority}
                  error={error('priority')}
                  onChange={(priority) => setRule(index, { priority })}
                />
                <TextField
                  label={labels.description}
                  required
                  maxLength={maxCommissionRuleDescriptionLength}
                  value={rule.description}
                  error={error('description')}
                  onChange={(description) => setRule(index, { description })}
                />
                <SelectField
                  label={labels.channel}
                  value={rule.channel}
                  options={channelOptions}
                  error={error('channel')}
                  onChange={(channel) => setRule(index, { channel })}
                />
                <TextField
                  label={labels.currency}
                  value={rule.currency}
                  placeholder="Any"
                  hint="Three letters, e.g. GBP."
                  error={error('currency')}
                  onChange={(currency) => setRule(index, { currency })}
                />
                <SelectField
                  label={labels.paymentMethod}
                  value={rule.paymentMethod}
                  options={methodOptions}
                  error={error('paymentMethod')}
                  onChange={(paymentMethod) => setRule(index, { paymentMethod })}
                />
                <SelectField
                  label={labels.cardType}
                  value={rule.cardType}
                  options={cardTypeOptions}
                  error={error('cardType')}
                  onChange={(cardType) => setRule(index, { cardType })}
                />
                <TextField
                  label={`${labels.volumeFromMinor} (minor units)`}
                  inputMode="numeric"
                  value={rule.volumeFrom}
                  error={error('volumeFromMinor')}
                  hint="The partner's paid sales that month, from this amount."
                  onChange={(volumeFrom) => setRule(index, { volumeFrom })}
                />
                <TextField
                  label={`${labels.volumeToMinor} (minor units)`}
                  inputMode="numeric"
                  value={rule.volumeTo}
                  error={error('volumeToMinor')}
                  hint="Up to, not including, this amount. Empty: no upper bound."
                  onChange={(volumeTo) => setRule(index, { volumeTo })}
                />
                <TextField
                  label={`${labels.percentageBasisPoints} (%)`}
                  inputMode="decimal"
                  value={rule.percent}
                  error={error('percentageBasisPoints')}
                  hint="Up to two decimals, e.g. 12.5."
                  onChange={(percent) => setRule(index, { percent })}
                />
                <TextField
                  label={`${labels.fixedMinor} a transaction (minor units)`}
                  inputMode="numeric"
                  value={rule.fixed}
                  error={error('fixedMinor')}
                  onChange={(fixed) => setRule(index, { fixed })}
                />
              </div>
              {readBack ? <p className="partners-note">Reads: {readBack}</p> : null}
              <button type="button" className="button" onClick={() => removeRule(index)}>
                Remove rule {index + 1}
              </button>
            </fieldset>
          );
        })}
      </div>
      <button
        type="button"
        className="button"
        disabled={draft.rules.length >= maxCommissionRules}
        onClick={() => onChange({ ...draft, rules: [...draft.rules, newRuleDraft(draft.rules)] })}
      >
        Add a rule
      </button>
    </>
  );
}
