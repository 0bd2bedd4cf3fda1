// One business: its details, its merchants as a table (Enter opens one, Shift+Enter beside), the recent activity
// from the audit events, and for internal users allowed to, an edit form (Shift+E) under the version rule: a
// stale save answers 409, the shell asks 'Someone updated this view' (Stay keeps these edits and shows what the
// other side saved; Discard changes reloads).
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { isApiError } from '../../src/api/api-error.ts';
import { businessQueries, saveBusiness } from '../../src/api/configuration-queries.ts';
import type { BusinessDetail, MerchantListItem } from '../../src/contract/configuration-schemas.ts';
import { checkBusinessEdit, maxNameLength, maxUrlLength } from '../../src/contract/configurations.ts';
import { formatDateTime } from '../../src/format/dates.ts';
import { type PaneProps, usePaneCapabilities, useLeaveFormGuard } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { CursorDataTable } from '../../src/ui/data-table/cursor-data-table.tsx';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';
import { TextField } from '../../src/ui/form-field.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { Tabs } from '../../src/ui/tabs.tsx';
import { BeneficiariesTab } from './list-tabs.tsx';
import { useRowCursor } from '../overview/row-cursor.ts';
import { useVersionedSave } from '../record/versioned-save.ts';
import { useVersionedDraft, VersionedEditForm } from '../../src/ui/record-changed.tsx';
import '../../src/ui/data-table/data-table.css';
import '../../src/ui/form-field.css';
import '../configurations/configurations.css';

const merchantColumns: readonly DataTableColumn<MerchantListItem>[] = [
  { id: 'merchantName', header: 'Merchant', width: 'minmax(12rem, 2fr)', cell: (row) => row.merchantName },
  { id: 'merchantId', header: 'Merchant ID', width: 'minmax(8rem, 1fr)', cell: (row) => row.merchantId },
  { id: 'currencies', header: 'Currencies', width: 'minmax(8rem, 1fr)', cell: (row) => row.currencies.join(', ') },
  { id: 'settlement', header: 'Settlement', width: 'minmax(8rem, 1fr)', cell: (row) => (row.grossSettlement ? 'Gross' : 'Net') },
  { id: 'live', header: 'Live', width: '6rem', cell: (row) => (row.live ? 'Yes' : 'No') },
];

type Draft = { businessName: string; businessUrl: string };
const draftOf = (detail: BusinessDetail): Draft => ({ businessName: detail.businessName, businessUrl: detail.businessUrl ?? '' });

export function BusinessDetailPane({ params }: PaneProps) {
  const businessId = params.businessId ?? '';
  const detail = useQuery(businessQueries.detail(businessId));
  const merchants = useQuery(businessQueries.merchants(businessId, { pagesize: '100' }));
  const ids = { title: useId(), merchants: useId(), activity: useId(), edit: useId() };
  const firstField = useRef<HTMLInputElement>(null);
  const editForm = useRef<HTMLFormElement>(null);
  // 0: the merchants and the recent activity; 1: the business's beneficiaries (their list screen, loaded on first open)
  const [tab, setTab] = useState(0);
  const editor = useVersionedDraft(detail.data, draftOf);
  const { draft, setDraft, editing, theirs, tried } = editor;
  useLeaveFormGuard(editor.dirty);

  const startEditing = () => {
    if (!detail.data?.editable) return;
    editor.start();
    requestAnimationFrame(() => firstField.current?.focus());
  };
  const rows = merchants.data?.results ?? [];
  // In a partner's frame (/partners/{p}/business/{b}) the merchant opens in the same frame.
  const merchantCursor = useRowCursor(rows, (row) =>
    params.partnerId
      ? `/partners/${encodeURIComponent(params.partnerId)}/business/${encodeURIComponent(businessId)}/merchant/${encodeURIComponent(row.merchantId)}`
      : `/business/${encodeURIComponent(businessId)}/merchants/${encodeURIComponent(row.merchantId)}`,
  );
  usePaneCapabilities({
    ...(detail.data?.editable && !editing ? { edit: startEditing } : {}),
    ...(editing ? { save: () => editForm.current?.requestSubmit() } : {}),
    ...merchantCursor.rowHandlers(!editing && tab === 0),
  });

  const save = useVersionedSave({
    editor,
    record: businessQueries.detail(businessId),
    save: (edited: Draft, version) => saveBusiness(businessId, { businessName: edited.businessName, businessUrl: edited.businessUrl.trim() || null, version }),
    onSaved: () => showToast({ kind: 'success', message: 'Business details saved.' }),
  });

  if (detail.isPending)
    return (
      <div className="record-pane">
        <Skeleton lines={6} label="Loading the business" />
      </div>
    );
  if (detail.isError) {
    const notFound = isApiError(detail.error) && detail.error.status === 404;
    return (
      <div className="record-pane">
        <h1>Business {businessId}</h1>
        <p role="alert">{notFound ? 'The requested record was not found.' : 'The business could not be loaded.'}</p>
      </div>
    );
  }
  const business = detail.data;
  const errors = draft ? checkBusinessEdit({ businessName: draft.businessName.trim(), businessUrl: draft.businessUrl.trim() || null }) : {};
  const shownErrors = tried ? errors : {};

  return (
    <article className="record-pane" aria-labelledby={ids.title}>
      <header className="record-header">
        <h1 id={ids.title}>{business.businessName}</h1>
        <div className="record-tools">
          {business.editable && !editing ? (
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
          heading="Edit business details"
          headingId={ids.edit}
          what="business"
          theirs={
            theirs ? (
              <>
                Someone else saved this business meanwhile: name '{theirs.businessName}', URL '{theirs.businessUrl ?? 'none'}'.
              </>
            ) : null
          }
          hasProblems={() => Object.keys(errors).length > 0}
          onSave={(version) => save.mutate({ draft, version })}
        >
          <div className="form-grid">
            <TextField
              inputRef={firstField}
              label="Business name"
              required
              maxLength={maxNameLength}
              value={draft.businessName}
              error={shownErrors.businessName}
              onChange={(businessName) => setDraft({ ...draft, businessName })}
            />
            <TextField
              label="Business URL"
              type="url"
              maxLength={maxUrlLength}
              value={draft.businessUrl}
              placeholder="https://"
              error={shownErrors.businessUrl}
              onChange={(businessUrl) => setDraft({ ...draft, businessUrl })}
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
          <dt>Business ID</dt>
          <dd>{business.businessId}</dd>
        </div>
        <div>
          <dt>Business URL</dt>
          <dd>
            {business.businessUrl ? (
              <a href={business.businessUrl} rel="noopener noreferrer" target="_blank">
                {business.businessUrl}
              </a>
            ) : (
              'N/A'
            )}
          </dd>
        </div>
        <div>
          <dt>Automatic remittance</dt>
          <dd>{business.camAutoRemittance ? 'On' : 'Off'}</dd>
        </div>
        <div>
          <dt>Partner</dt>
          <dd>{business.partnerName ? `${business.partnerName} (${business.partnerId})` : 'None'}</dd>
        </div>
        <div>
          <dt>Live</dt>
          <dd>{business.live ? 'Yes' : 'No'}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(business.createDateTimeUtc)}</dd>
        </div>
      </dl>

      <Tabs
        label="Business"
        tabs={[
          { id: 'overview', label: 'Merchants and activity' },
          { id: 'beneficiaries', label: 'Beneficiaries' },
        ]}
        activeIndex={tab}
        onActiveIndexChange={setTab}
        contents={[
          <div key="overview">
            <section className="record-section" aria-labelledby={ids.merchants}>
              <h2 id={ids.merchants}>Merchants</h2>
              {merchants.isError && isApiError(merchants.error) && merchants.error.status === 403 ? (
                <p>You cannot see the merchants of this business.</p>
              ) : (
                <CursorDataTable
                  {...merchantCursor.table}
                  resetKey={String(merchants.dataUpdatedAt)}
                  caption="Merchants"
                  columns={merchantColumns}
                  rowKey={(row) => row.merchantId}
                  rowHeader="merchantName"
                  status={merchants.isError ? 'error' : merchants.isPending ? 'loading' : 'ready'}
                  emptyMessage="This business has no merchants."
                  errorMessage="The merchants could not be loaded."
                  totalRows={merchants.data?.numberOfResults ?? 0}
                />
              )}
            </section>

            <section className="record-section" aria-labelledby={ids.activity}>
              <h2 id={ids.activity}>Recent activity</h2>
              {business.recentActivity.length === 0 ? (
                <p>No recent activity.</p>
              ) : (
                <ul className="record-list">
                  {business.recentActivity.map((item, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: activity items have no id and are only ever shown in the order the server gives
                    <li key={`${item.dateTimeUtc}-${index}`}>
                      <time dateTime={item.dateTimeUtc}>{formatDateTime(item.dateTimeUtc)}</time>
                      <span>
                        {activityLabel(item.event)}
                        {item.merchantId ? ` (merchant ${item.merchantId})` : ''}
                      </span>
                      <span className="record-meta">by {item.userName}</span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </div>,
          tab === 1 ? <BeneficiariesTab key="beneficiaries" businessId={businessId} /> : null,
        ]}
      />
    </article>
  );
}

/** 'ConfigurationCreated' → 'Configuration created'. */
export function activityLabel(event: string): string {
  const words = event.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
