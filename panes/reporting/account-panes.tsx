// Merchant accounts (overview and detail: the merchant's account groups and every account's balance, with links into
// each statement), business accounts (overview and detail, only where automatic remittance is off: the balance, the
// merchant accounts paying into it, its transfers and the remittance settings form) and the pricing plan.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../src/api/api-error.ts';
import type { Remittance } from '../../src/contract/ledger-schemas.ts';
import { accountKindLabels, statementRouteSlugs, type MerchantAccountKind } from '../../src/contract/ledger.ts';
import { formatShortDate } from '../../src/format/dates.ts';
import { formatMoney } from '../../src/format/money.ts';
import { formatPaymentMethod } from '../../src/format/payment-method.ts';
import { type PaneProps, useLeaveFormGuard } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { businessGroupsPath, ledgerQueries, saveRemittance } from './ledger-queries.ts';
import './reporting.css';

const statementLink = (kind: MerchantAccountKind, accountNumber: string) => `/reporting/${statementRouteSlugs[kind]}/${encodeURIComponent(accountNumber)}`;

export function MerchantAccountsPane({ params }: PaneProps) {
  const businessId = params.businessId ?? '';
  const merchantId = params.merchantId ?? '';
  const groups = useQuery(ledgerQueries.merchantGroups(businessId, merchantId));
  const base = `/business/${encodeURIComponent(businessId)}/merchants/${encodeURIComponent(merchantId)}/merchant-accounts-overview`;
  return (
    <div className="reporting-pane">
      <h1>Merchant accounts</h1>
      {groups.isPending ? <p role="status">Loading the account groups…</p> : null}
      {groups.isError ? <p role="alert">The account groups could not be loaded.</p> : null}
      {groups.data && groups.data.results.length === 0 ? <p>There are no account groups here yet.</p> : null}
      {groups.data && groups.data.results.length > 0 ? (
        <table className="reporting-totals">
          <caption>Account groups and balances</caption>
          <thead>
            <tr>
              <th scope="col">Account group</th>
              <th scope="col">Currency</th>
              {['trading', 'reserve', 'security', 'remittance', 'costs'].map((kind) => (
                <th key={kind} scope="col">
                  {accountKindLabels[kind as MerchantAccountKind]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {groups.data.results.map((group) => (
              <tr key={group.accountNumber}>
                <th scope="row">
                  <a href={`${base}/${encodeURIComponent(group.accountNumber)}`}>{group.accountNumber}</a>
                </th>
                <td>{group.currency}</td>
                {(['trading', 'reserve', 'security', 'remittance', 'costs'] as const).map((kind) => (
                  <td key={kind}>{formatMoney(group.balances.find((balance) => balance.kind === kind)?.balance ?? 0, group.currency)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

export function MerchantAccountDetailPane({ params }: PaneProps) {
  const businessId = params.businessId ?? '';
  const merchantId = params.merchantId ?? '';
  const accountNumber = params.merchantAccountId ?? '';
  const group = useQuery(ledgerQueries.merchantGroup(businessId, merchantId, accountNumber));
  const data = group.data;
  // The server lists the invoice account where it is in use: gross settlement, or entries such as a net-settled
  // merchant's monthly minimum top-ups. Every account listed has a statement.
  const kinds = data ? data.balances.map((balance) => balance.kind).filter((kind): kind is MerchantAccountKind => kind !== 'business') : [];
  return (
    <div className="reporting-pane">
      <h1>Merchant account {accountNumber}</h1>
      {group.isPending ? <p role="status">Loading the account group…</p> : null}
      {group.isError ? <p role="alert">The account group could not be loaded.</p> : null}
      {data ? (
        <>
          <p>
            {data.merchantName} · {data.currency} · {data.grossSettlement ? 'gross settlement (fees invoiced)' : 'net settlement (fees deducted)'} · reserve{' '}
            {data.reservePercentage} % for {data.reserveDays} days
          </p>
          <table className="reporting-totals">
            <caption>Balances now</caption>
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Balance</th>
                <th scope="col">Statement</th>
              </tr>
            </thead>
            <tbody>
              {kinds.map((kind) => (
                <tr key={kind}>
                  <th scope="row">{accountKindLabels[kind]}</th>
                  <td>{formatMoney(data.balances.find((balance) => balance.kind === kind)?.balance ?? 0, data.currency)}</td>
                  <td>
                    <a href={statementLink(kind, accountNumber)}>Open {accountKindLabels[kind].toLowerCase()}</a>
                  </td>
                </tr>
              ))}
              <tr>
                <th scope="row">Settlement batches</th>
                <td>—</td>
                <td>
                  <a href={`/reporting/batch-report/${encodeURIComponent(accountNumber)}`}>Open batch report</a>
                </td>
              </tr>
            </tbody>
          </table>
        </>
      ) : null}
    </div>
  );
}

export function BusinessAccountsPane({ params }: PaneProps) {
  const businessId = params.businessId ?? '';
  const merchantId = params.merchantId ?? '';
  const groups = useQuery(ledgerQueries.businessGroups(businessId));
  const base = `/business/${encodeURIComponent(businessId)}/merchants/${encodeURIComponent(merchantId)}/business-accounts-overview`;
  return (
    <div className="reporting-pane">
      <h1>Business accounts</h1>
      {groups.isPending ? <p role="status">Loading the business accounts…</p> : null}
      {groups.isError ? <p role="alert">The business accounts could not be loaded.</p> : null}
      {groups.data && groups.data.results.length === 0 ? <p>This business has no business accounts (automatic remittance is on).</p> : null}
      {groups.data && groups.data.results.length > 0 ? (
        <table className="reporting-totals">
          <caption>Business accounts</caption>
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col">Currency</th>
              <th scope="col">Balance</th>
              <th scope="col">Merchant accounts</th>
            </tr>
          </thead>
          <tbody>
            {groups.data.results.map((group) => (
              <tr key={group.accountNumber}>
                <th scope="row">
                  <a href={`${base}/${encodeURIComponent(group.accountNumber)}`}>{group.accountNumber}</a>
                </th>
                <td>{group.currency}</td>
                <td>{formatMoney(group.balance, group.currency)}</td>
                <td>{group.merchantAccounts.map((account) => account.merchantName).join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

export function BusinessAccountDetailPane({ params }: PaneProps) {
  const businessId = params.businessId ?? '';
  const accountNumber = params.businessAccountId ?? '';
  const group = useQuery(ledgerQueries.businessGroup(businessId, accountNumber));
  const transfers = useQuery(
    ledgerQueries.transfers(`${businessGroupsPath(businessId)}/${encodeURIComponent(accountNumber)}/transfers`, {
      pageNumber: 1,
      pageSize: 10,
      sort: { field: 'date', descending: true },
      filters: {},
    }),
  );
  const remittance = useQuery(ledgerQueries.remittance(businessId, accountNumber));
  const data = group.data;
  return (
    <div className="reporting-pane">
      <h1>Business account {accountNumber}</h1>
      {group.isError ? <p role="alert">The business account could not be loaded.</p> : null}
      {data ? (
        <p>
          {data.businessName} · {data.currency} · balance {formatMoney(data.balance, data.currency)} ·{' '}
          <a href={`/reporting/business-account/${encodeURIComponent(accountNumber)}`}>Open business account statement</a>
        </p>
      ) : null}
      {transfers.data ? (
        <table className="reporting-totals">
          <caption>Latest transfers</caption>
          <thead>
            <tr>
              <th scope="col">Transfer date</th>
              <th scope="col">Amount</th>
              <th scope="col">Maturity date</th>
            </tr>
          </thead>
          <tbody>
            {transfers.data.results.map((transfer) => (
              <tr key={transfer.id}>
                <th scope="row">
                  <a
                    href={`/business/${encodeURIComponent(businessId)}/merchants/${encodeURIComponent(params.merchantId ?? '')}/business-accounts-overview/${encodeURIComponent(accountNumber)}/transfers/${encodeURIComponent(transfer.id)}`}
                  >
                    {formatShortDate(transfer.transferDate)}
                  </a>
                </th>
                <td>{formatMoney(transfer.amount, transfer.currency)}</td>
                <td>{formatShortDate(transfer.maturityDate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {remittance.data ? <RemittanceForm businessId={businessId} accountNumber={accountNumber} current={remittance.data} /> : null}
      {remittance.isError ? <p role="alert">The remittance settings could not be loaded.</p> : null}
    </div>
  );
}

type RemittanceDraft = {
  frequency: Remittance['frequency'];
  dayOfPeriod: string;
  startDate: string;
  beneficiaryKind: 'company' | 'person';
  companyName: string;
  givenName: string;
  familyName: string;
  dateOfBirth: string;
};

const draftOf = (current: Remittance): RemittanceDraft => ({
  frequency: current.frequency,
  dayOfPeriod: String(current.dayOfPeriod),
  startDate: current.startDate,
  beneficiaryKind: current.beneficiary.companyName !== undefined ? 'company' : 'person',
  companyName: current.beneficiary.companyName ?? '',
  givenName: current.beneficiary.givenName ?? '',
  familyName: current.beneficiary.familyName ?? '',
  dateOfBirth: current.beneficiary.dateOfBirth ?? '',
});

export function RemittanceForm({ businessId, accountNumber, current }: { businessId: string; accountNumber: string; current: Remittance }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<RemittanceDraft>(() => draftOf(current));
  // A new version of the settings (saved here or elsewhere) replaces the draft; the same version fetched again does not.
  const [draftVersion, setDraftVersion] = useState(current.version);
  if (draftVersion !== current.version) {
    setDraftVersion(current.version);
    setDraft(draftOf(current));
  }
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(current));
  useLeaveFormGuard(dirty);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      saveRemittance(businessId, accountNumber, {
        frequency: draft.frequency,
        dayOfPeriod: draft.frequency === 'daily' ? 1 : Number(draft.dayOfPeriod),
        startDate: draft.startDate,
        version: current.version,
        beneficiary:
          draft.beneficiaryKind === 'company'
            ? { companyName: draft.companyName.trim() }
            : { givenName: draft.givenName.trim(), familyName: draft.familyName.trim(), dateOfBirth: draft.dateOfBirth },
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(ledgerQueries.remittance(businessId, accountNumber).queryKey, saved);
      setProblem(null);
      showToast({ kind: 'success', message: 'Remittance settings saved.' });
    },
    onError: (error) => setProblem(error instanceof ApiError ? error.message : 'The remittance settings could not be saved.'),
  });
  const set = (patch: Partial<RemittanceDraft>) => setDraft({ ...draft, ...patch });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const day = Number(draft.dayOfPeriod);
    if (draft.frequency !== 'daily' && (!Number.isInteger(day) || day < 1 || day > (draft.frequency === 'weekly' ? 7 : 28))) {
      setProblem(`Day should be between 1 and ${draft.frequency === 'weekly' ? 7 : 28}`);
      return;
    }
    if (draft.beneficiaryKind === 'company' ? !draft.companyName.trim() : !(draft.givenName.trim() && draft.familyName.trim() && draft.dateOfBirth)) {
      setProblem(draft.beneficiaryKind === 'company' ? 'Company name is required' : 'Given name, family name and date of birth are required');
      return;
    }
    save.mutate();
  };
  return (
    <form className="reporting-form" aria-label="Remittance settings" onSubmit={submit}>
      <h2>Remittance</h2>
      <p>
        Next payment {current.nextPaymentDate}, then {current.nextScheduleDate}; paid to {current.ibanMasked}.
      </p>
      <label>
        Frequency
        <select value={draft.frequency} onChange={(event) => set({ frequency: event.target.value as RemittanceDraft['frequency'] })}>
          <option value="daily">Daily</option>
          <option value="weekly">Weekly</option>
          <option value="monthly">Monthly</option>
        </select>
      </label>
      {draft.frequency !== 'daily' ? (
        <label>
          {draft.frequency === 'weekly' ? 'Day of the week (1 = Monday)' : 'Day of the month (1–28)'}
          <input
            type="number"
            min={1}
            max={draft.frequency === 'weekly' ? 7 : 28}
            value={draft.dayOfPeriod}
            onChange={(event) => set({ dayOfPeriod: event.target.value })}
          />
        </label>
      ) : null}
      <label>
        Start date
        <input type="date" value={draft.startDate} required onChange={(event) => set({ startDate: event.target.value })} />
      </label>
      <fieldset>
        <legend>Beneficiary</legend>
        <label className="dt-radio">
          <input type="radio" name="beneficiaryKind" checked={draft.beneficiaryKind === 'company'} onChange={() => set({ beneficiaryKind: 'company' })} />A
          company
        </label>
        <label className="dt-radio">
          <input type="radio" name="beneficiaryKind" checked={draft.beneficiaryKind === 'person'} onChange={() => set({ beneficiaryKind: 'person' })} />A person
        </label>
        {draft.beneficiaryKind === 'company' ? (
          <label>
            Company name
            <input value={draft.companyName} maxLength={140} onChange={(event) => set({ companyName: event.target.value })} />
          </label>
        ) : (
          <>
            <label>
              Given name
              <input value={draft.givenName} maxLength={70} onChange={(event) => set({ givenName: event.target.value })} />
            </label>
            <label>
              Family name
              <input value={draft.familyName} maxLength={70} onChange={(event) => set({ familyName: event.target.value })} />
            </label>
            <label>
              Date of birth
              <input type="date" value={draft.dateOfBirth} onChange={(event) => set({ dateOfBirth: event.target.value })} />
            </label>
          </>
        )}
      </fieldset>
      {problem ? <p role="alert">{problem}</p> : null}
      <div>
        <button type="submit" className="button button-primary" disabled={!dirty || save.isPending}>
          {save.isPending ? 'Saving…' : 'Save remittance settings'}
        </button>
      </div>
    </form>
  );
}

export function PricingPlanPane({ params }: PaneProps) {
  const businessId = params.businessId ?? '';
  const plans = useQuery(ledgerQueries.pricingPlan(businessId));
  return (
    <div className="reporting-pane">
      <h1>Pricing plan</h1>
      {plans.isPending ? <p role="status">Loading the pricing plan…</p> : null}
      {plans.isError ? <p role="alert">The pricing plan could not be loaded.</p> : null}
      {plans.data && plans.data.results.length === 0 ? <p>There is no pricing plan for this business yet.</p> : null}
      {plans.data?.results.map((plan) => (
        <table key={`${plan.merchantId}/${plan.currency}`} className="reporting-totals">
          <caption>
            <a href={`/business/${encodeURIComponent(businessId)}/merchants/${encodeURIComponent(plan.merchantId)}`}>{plan.merchantName}</a> · {plan.currency} ·{' '}
            {plan.name} · monthly minimum {formatMoney(plan.monthlyMinimum, plan.currency)} · since {formatShortDate(plan.validFrom)}
          </caption>
          <thead>
            <tr>
              <th scope="col">Payment method</th>
              <th scope="col">Percentage</th>
              <th scope="col">Fixed</th>
            </tr>
          </thead>
          <tbody>
            {plan.rates.map((rate) => (
              <tr key={rate.paymentMethod}>
                <th scope="row">{formatPaymentMethod(rate.paymentMethod)}</th>
                <td>{rate.percentage.toFixed(2)} %</td>
                <td>{formatMoney(rate.fixedAmount, plan.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </div>
  );
}

const internalKindLabels = { clearing: 'Clearing account', bank: 'Bank account' } as const;

/**
 * The provider's own accounts (internal staff, Mapi.InternalMerchantAccounts.Read; the server refuses everyone else):
 * per currency the clearing account (shoppers' money on its way to merchants) and the bank account, with balances.
 * By double entry the merchants' and businesses' accounts together hold the negative of their sum.
 */
export function InternalAccountsPane(_props: PaneProps) {
  const list = useQuery(ledgerQueries.internalAccounts());
  const rows = list.data?.results ?? [];
  const currencies = [...new Set(rows.map((row) => row.currency))];
  return (
    <div className="reporting-pane">
      <h1>Internal accounts</h1>
      <p>The provider's own accounts per currency. What merchants and businesses are owed is the negative of each currency's total.</p>
      {list.isError ? <p role="alert">The internal accounts could not be loaded.</p> : null}
      {list.isPending ? <p>Loading internal accounts…</p> : null}
      {list.isSuccess && rows.length === 0 ? <p>There are no internal accounts yet.</p> : null}
      {currencies.length > 0 ? (
        <table className="reporting-totals">
          <caption>Internal accounts and balances</caption>
          <thead>
            <tr>
              <th scope="col">Currency</th>
              <th scope="col">Clearing account</th>
              <th scope="col">Bank account</th>
              <th scope="col">Total</th>
              <th scope="col">Owed to merchants and businesses</th>
            </tr>
          </thead>
          <tbody>
            {currencies.map((currency) => {
              const balance = (kind: 'clearing' | 'bank') => rows.find((row) => row.currency === currency && row.kind === kind)?.balance ?? 0;
              const total = balance('clearing') + balance('bank');
              return (
                <tr key={currency}>
                  <th scope="row">{currency}</th>
                  {(['clearing', 'bank'] as const).map((kind) => (
                    <td key={kind} aria-label={`${internalKindLabels[kind]} ${currency}`}>
                      {formatMoney(balance(kind), currency)}
                    </td>
                  ))}
                  <td>{formatMoney(total, currency)}</td>
                  <td>{formatMoney(-total, currency)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
