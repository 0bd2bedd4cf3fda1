// One merchant: its details, its configurations, and (for internal users allowed to) an edit form (Shift+E) under
// the version rule. 'Switch context to this merchant' is a command (commands/configurations/); the button here
// follows the same link. Account groups come from the settlement ledger (panes/reporting), each a link to its accounts.
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { isApiError } from '../../src/api/api-error.ts';
import { businessQueries, saveMerchant } from '../../src/api/configuration-queries.ts';
import type { MerchantDetail } from '../../src/contract/configuration-schemas.ts';
import { checkMerchantEdit, maxEmailLength, maxNameLength, maxUrlLength } from '../../src/contract/configurations.ts';
import { formatDateTime } from '../../src/format/dates.ts';
import { formatMoney } from '../../src/format/money.ts';
import { ledgerQueries } from '../reporting/ledger-queries.ts';
import { contextStore } from '../../src/state/context-store.ts';
import { type PaneProps, usePaneCapabilities, useLeaveFormGuard } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { TextField } from '../../src/ui/form-field.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { Tabs } from '../../src/ui/tabs.tsx';
import { CustomersTab } from './list-tabs.tsx';
import { useVersionedSave } from '../record/versioned-save.ts';
import { useVersionedDraft, VersionedEditForm } from '../../src/ui/record-changed.tsx';
import '../../src/ui/form-field.css';
import '../configurations/configurations.css';

/** The same link the 'Switch context to this merchant' command follows: /context/apply looks the names and the first configuration up. */
/** The merchant's account groups from the settlement ledger: currency, trading balance, a link to each. */
function MerchantAccountGroups({ businessId, merchantId }: { businessId: string; merchantId: string }) {
  const groups = useQuery(ledgerQueries.merchantGroups(businessId, merchantId));
  if (groups.isPending) return <Skeleton lines={2} label="Loading the account groups" />;
  if (groups.isError) {
    const refused = isApiError(groups.error) && groups.error.status === 403;
    return <p>{refused ? 'You do not have the correct permissions.' : 'The account groups could not be loaded.'}</p>;
  }
  if (groups.data.results.length === 0) return <p>This merchant has no account groups yet.</p>;
  const base = `/business/${encodeURIComponent(businessId)}/merchants/${encodeURIComponent(merchantId)}/merchant-accounts-overview`;
  return (
    <ul className="record-list">
      {groups.data.results.map((group) => (
        <li key={group.accountNumber}>
          <a href={`${base}/${encodeURIComponent(group.accountNumber)}`}>{group.accountNumber}</a>
          <span className="record-meta">
            {group.currency} · trading {formatMoney(group.balances.find((balance) => balance.kind === 'trading')?.balance ?? 0, group.currency)}
          </span>
        </li>
      ))}
    </ul>
  );
}

function switchToMerchantLink(route: string, businessId: string, merchantId: string, businessName: string, merchantName: string): string {
  const params = new URLSearchParams({ route });
  params.set('business', JSON.stringify({ id: businessId, title: businessName }));
  params.set('merchant', JSON.stringify({ id: merchantId, title: merchantName }));
  params.set('recent', '1');
  return `/context/apply?${params.toString()}`;
}

type Draft = { merchantName: string; merchantUrl: string; supportUrl: string; supportEmail: string };
const draftOf = (detail: MerchantDetail): Draft => ({
  merchantName: detail.merchantName,
  merchantUrl: detail.merchantUrl ?? '',
  supportUrl: detail.supportUrl ?? '',
  supportEmail: detail.supportEmail ?? '',
});
const editOf = (draft: Draft) => ({
  merchantName: draft.merchantName.trim(),
  merchantUrl: draft.merchantUrl.trim() || null,
  supportUrl: draft.supportUrl.trim() || null,
  supportEmail: draft.supportEmail.trim() || null,
});

export function MerchantDetailPane({ params }: PaneProps) {
  const businessId = params.businessId ?? '';
  const merchantId = params.merchantId ?? '';
  // 0: the merchant's accounts; 1: its stored customers (their list screen, loaded on first open)
  const [tab, setTab] = useState(0);
  const [location, navigate] = useLocation();
  const { applied } = useSnapshot(contextStore);
  const detail = useQuery(businessQueries.merchant(businessId, merchantId));
  const ids = { title: useId(), configurations: useId(), accounts: useId(), edit: useId() };
  const firstField = useRef<HTMLInputElement>(null);
  const editForm = useRef<HTMLFormElement>(null);
  const editor = useVersionedDraft(detail.data, draftOf);
  const { draft, setDraft, editing, theirs, tried } = editor;
  useLeaveFormGuard(editor.dirty);
  const startEditing = () => {
    if (!detail.data?.editable) return;
    editor.start();
    requestAnimationFrame(() => firstField.current?.focus());
  };
  usePaneCapabilities({
    ...(detail.data?.editable && !editing ? { edit: startEditing } : {}),
    ...(editing ? { save: () => editForm.current?.requestSubmit() } : {}),
  });

  const save = useVersionedSave({
    editor,
    record: businessQueries.merchant(businessId, merchantId),
    save: (edited: Draft, version) => saveMerchant(businessId, merchantId, { ...editOf(edited), version }),
    onSaved: () => showToast({ kind: 'success', message: 'Merchant details saved.' }),
  });

  if (detail.isPending)
    return (
      <div className="record-pane">
        <Skeleton lines={6} label="Loading the merchant" />
      </div>
    );
  if (detail.isError) {
    const notFound = isApiError(detail.error) && detail.error.status === 404;
    return (
      <div className="record-pane">
        <h1>Merchant {merchantId}</h1>
        <p role="alert">{notFound ? 'The requested record was not found.' : 'The merchant could not be loaded.'}</p>
      </div>
    );
  }
  const merchant = detail.data;
  const isApplied = applied.merchant?.id === merchant.merchantId;
  const errors = draft ? checkMerchantEdit(editOf(draft)) : {};
  const shownErrors = tried ? errors : {};
  const link = (url: string | null) =>
    url ? (
      <a href={url} rel="noopener noreferrer" target="_blank">
        {url}
      </a>
    ) : (
      'N/A'
    );

  return (
    <article className="record-pane" aria-labelledby={ids.title}>
      <header className="record-header">
        <h1 id={ids.title}>{merchant.merchantName}</h1>
        <div className="record-tools">
          {!isApplied ? (
            <button
              type="button"
              className="button"
              onClick={() => navigate(switchToMerchantLink(location, merchant.businessId, merchant.merchantId, merchant.businessName, merchant.merchantName))}
            >
              Switch context to this merchant
            </button>
          ) : (
            <span className="record-meta">This is the merchant you are working in.</span>
          )}
          {merchant.editable && !editing ? (
            <button type="button" className="button" onClick={startEditing}>
              Edit details
            </button>
          ) : null}
        </div>
      </header>
      {editing && draft ? (
        <VersionedEditForm
          editor={editor}
          formRef={editForm}
          heading="Edit merchant details"
          headingId={ids.edit}
          what="merchant"
          theirs={
            theirs ? (
              <>
                Someone else saved this merchant meanwhile: name '{theirs.merchantName}', merchant URL '{theirs.merchantUrl ?? 'none'}', support URL '
                {theirs.supportUrl ?? 'none'}', support email '{theirs.supportEmail ?? 'none'}'.
              </>
            ) : null
          }
          hasProblems={() => Object.keys(errors).length > 0}
          onSave={(version) => save.mutate({ draft, version })}
        >
          <div className="form-grid">
            <TextField
              inputRef={firstField}
              label="Merchant name"
              required
              maxLength={maxNameLength}
              value={draft.merchantName}
              error={shownErrors.merchantName}
              onChange={(merchantName) => setDraft({ ...draft, merchantName })}
            />
            <TextField
              label="Merchant URL"
              type="url"
              maxLength={maxUrlLength}
              value={draft.merchantUrl}
              placeholder="https://"
              error={shownErrors.merchantUrl}
              onChange={(merchantUrl) => setDraft({ ...draft, merchantUrl })}
            />
            <TextField
              label="Support URL"
              type="url"
              maxLength={maxUrlLength}
              value={draft.supportUrl}
              placeholder="https://"
              error={shownErrors.supportUrl}
              onChange={(supportUrl) => setDraft({ ...draft, supportUrl })}
            />
            <TextField
              label="Support email"
              type="email"
              maxLength={maxEmailLength}
              value={draft.supportEmail}
              placeholder="support@example.com"
              hint="Shoppers' replies to this merchant's emails (payment requests, receipts, refunds) go here."
              error={shownErrors.supportEmail}
              onChange={(supportEmail) => setDraft({ ...draft, supportEmail })}
            />
          </div>
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={save.isPending}>
              Save
            </button>
            <button type="button" className="button" onClick={editor.stop}>
              Cancel
            </button>
          </div>
        </VersionedEditForm>
      ) : null}
      <dl className="detail-grid">
        <div>
          <dt>Merchant ID</dt>
          <dd>{merchant.merchantId}</dd>
        </div>
        <div>
          <dt>Business</dt>
          <dd>
            <a
              href={
                params.partnerId
                  ? `/partners/${encodeURIComponent(params.partnerId)}/business/${encodeURIComponent(merchant.businessId)}`
                  : `/business/${encodeURIComponent(merchant.businessId)}`
              }
            >
              {merchant.businessName}
            </a>
          </dd>
        </div>
        <div>
          <dt>Merchant URL</dt>
          <dd>{link(merchant.merchantUrl)}</dd>
        </div>
        <div>
          <dt>Support URL</dt>
          <dd>{link(merchant.supportUrl)}</dd>
        </div>
        <div>
          <dt>Support email</dt>
          <dd>
            {merchant.supportEmail ? <a href={`mailto:${merchant.supportEmail}`}>{merchant.supportEmail}</a> : 'None: shoppers are told replies are not read'}
          </dd>
        </div>
        <div>
          <dt>Settlement</dt>
          <dd>{merchant.grossSettlement ? 'Gross settlement' : 'Net settlement'}</dd>
        </div>
        <div>
          <dt>Currencies</dt>
          <dd>{merchant.currencies.join(', ')}</dd>
        </div>
        <div>
          <dt>Live</dt>
          <dd>{merchant.live ? 'Yes' : 'No'}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(merchant.createDateTimeUtc)}</dd>
        </div>
      </dl>
      <section className="record-section" aria-labelledby={ids.configurations}>
        <h2 id={ids.configurations}>Configurations</h2>
        {merchant.configurations.length === 0 ? (
          <p>This merchant has no configurations.</p>
        ) : (
          <ul className="record-list">
            {merchant.configurations.map((configuration) => (
              <li key={configuration.configurationId}>
                {isApplied ? (
                  <a href={`/configurations/${encodeURIComponent(configuration.configurationId)}`}>{configuration.tradeName}</a>
                ) : (
                  <span>{configuration.tradeName}</span>
                )}
                <span className="record-meta">{configuration.configurationId}</span>
              </li>
            ))}
          </ul>
        )}
        {!isApplied && merchant.configurations.length > 0 ? <p className="record-meta">Switch context to this merchant to open its configurations.</p> : null}
      </section>
      <Tabs
        label="Merchant"
        tabs={[
          { id: 'accounts', label: 'Accounts' },
          { id: 'customers', label: 'Customers' },
        ]}
        activeIndex={tab}
        onActiveIndexChange={setTab}
        contents={[
          <div key="accounts">
            <section className="record-section" aria-labelledby={ids.accounts}>
              <h2 id={ids.accounts}>Account groups</h2>
              <MerchantAccountGroups businessId={merchant.businessId} merchantId={merchant.merchantId} />
            </section>
          </div>,
          tab === 1 ? <CustomersTab key="customers" businessId={businessId} merchantId={merchantId} /> : null,
        ]}
      />
    </article>
  );
}
