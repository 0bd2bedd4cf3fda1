// A business's beneficiaries: status, screening alerts open, and 'New beneficiary' (Shift+N) for those
// who may set them up; others are told to ask the business owner (spec). j / k, Enter, Shift+Enter as everywhere.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { userQueries } from '../../src/api/user-queries.ts';
import { askBusinessOwnerMessage } from '../../src/contract/beneficiaries.ts';
import type { BeneficiaryListItem } from '../../src/contract/beneficiary-schemas.ts';
import { beneficiaryStatuses } from '../../src/contract/enumerations.ts';
import { formatIban } from '../../src/contract/iban.ts';
import { defaultPageSize, pageSizes } from '../../src/contract/list-query.ts';
import { tableRowsCapability } from '../../src/contract/table-rows.ts';
import { formatDate } from '../../src/format/dates.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities, usePaneScope } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { openBeside } from '../../src/state/workspace-store.ts';
import { CursorDataTable, type RowCursorHandle } from '../../src/ui/data-table/cursor-data-table.tsx';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';
import { Pagination } from '../../src/ui/data-table/pagination.tsx';
import { BeneficiaryFormDialog } from './beneficiary-form.tsx';
import { beneficiaryQueries, createBeneficiary } from './beneficiary-queries.ts';
import { tableStatusOf } from '../../src/ui/data-table/table-status.ts';
import { rowRequestHandler } from '../overview/row-cursor.ts';
import '../../src/ui/data-table/data-table.css';
import '../watch-list/watch-list.css';

export const beneficiaryPath = (businessId: string, beneficiaryId: string) =>
  `/business/${encodeURIComponent(businessId)}/beneficiaries/${encodeURIComponent(beneficiaryId)}`;
const statusTones: Record<string, string> = { Approved: 'success', Referred: 'warning', Rejected: 'danger' };

function columnsFor(businessId: string): readonly DataTableColumn<BeneficiaryListItem>[] {
  return [
    {
      id: 'name',
      header: 'Beneficiary',
      cell: (row) => (
        <a className="data-table-link is-name" href={beneficiaryPath(businessId, row.beneficiaryId)}>
          {row.name}
        </a>
      ),
    },
    { id: 'kind', header: 'Type', cell: (row) => (row.kind === 'company' ? 'Company' : 'Person') },
    { id: 'account', header: 'Bank account', cell: (row) => `${row.nameOnBankAccount}, ${formatIban(row.iban)}` },
    {
      id: 'status',
      header: 'Status',
      cell: (row) => (
        <span className="status-chip" data-tone={statusTones[row.status]}>
          {row.status}
        </span>
      ),
    },
    { id: 'alerts', header: 'Open alerts', align: 'end', cell: (row) => String(row.openAlerts) },
    { id: 'created', header: 'Created', cell: (row) => formatDate(row.createdUtc) },
  ];
}

export function BeneficiariesPane({ params, search }: PaneProps) {
  const businessId = params.businessId ?? '';
  const query = new URLSearchParams(search);
  const pageNumber = Math.max(1, Number(query.get('pagenumber')) || 1);
  const pageSize = (pageSizes as readonly number[]).includes(Number(query.get('pagesize'))) ? Number(query.get('pagesize')) : defaultPageSize;
  const statusParam = query.get('status');
  const status = (beneficiaryStatuses as readonly string[]).includes(statusParam ?? '') ? statusParam : null;
  const [, navigate] = useLocation();
  const scope = usePaneScope();
  const queryClient = useQueryClient();
  const list = useQuery(beneficiaryQueries.list(businessId, pageNumber, pageSize, status));
  const permissions = useQuery(userQueries.permissions(`/user/businesses/${encodeURIComponent(businessId)}/permissions`));
  const canSetUp = permissions.data?.includes('Mapi.Beneficiary.Create') === true;
  const [formOpen, setFormOpen] = useState(false);
  const rows = useMemo(() => (list.isError ? [] : (list.data?.results ?? [])), [list.isError, list.data]);
  const rowCursor = useRef<RowCursorHandle>(null);
  const create = useMutation({
    mutationFn: (body: Parameters<typeof createBeneficiary>[1]) => createBeneficiary(businessId, body),
    onSuccess: async (created) => {
      setFormOpen(false);
      await queryClient.invalidateQueries({ queryKey: beneficiaryQueries.all });
      showToast({ kind: 'success', message: 'Beneficiary created and screened; it now needs a second person to approve it.' });
      navigate(beneficiaryPath(businessId, created.beneficiaryId));
    },
  });
  const goTo = (next: { pageNumber: number; pageSize: number; status: string | null }) => {
    const params = new URLSearchParams({ pagenumber: String(next.pageNumber), pagesize: String(next.pageSize) });
    if (next.status) params.set('status', next.status);
    navigate(`/business/${encodeURIComponent(businessId)}/beneficiaries?${params.toString()}`);
  };
  const openRow = (row: BeneficiaryListItem | undefined, beside: boolean) => {
    if (!row) return;
    const path = beneficiaryPath(businessId, row.beneficiaryId);
    if (beside) openBeside(path, scope ? { afterPaneId: scope.paneId } : {});
    else navigate(path);
  };
  const handlers: PaneRequestHandlers = {};
  if (canSetUp && !formOpen) handlers.newItem = () => setFormOpen(true);
  if (rows.length > 0 && !formOpen) {
    handlers[tableRowsCapability] = rowRequestHandler(rowCursor, rows, openRow);
  }
  usePaneCapabilities(handlers);

  return (
    <section className="risk-pane" aria-labelledby="beneficiaries-title">
      <header className="risk-header">
        <h1 id="beneficiaries-title">Beneficiaries</h1>
        <label>
          Status{' '}
          <select value={status ?? ''} onChange={(event) => goTo({ pageNumber: 1, pageSize, status: event.target.value || null })}>
            <option value="">All</option>
            {beneficiaryStatuses.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        {canSetUp ? (
          <button type="button" className="button button-primary" onClick={() => setFormOpen(true)}>
            New beneficiary
          </button>
        ) : null}
      </header>
      {permissions.isSuccess && !canSetUp ? (
        <p className="risk-note" role="note">
          {askBusinessOwnerMessage}
        </p>
      ) : null}
      <CursorDataTable
        cursorHandle={rowCursor}
        resetKey={`${search}|${list.dataUpdatedAt}`}
        caption="Beneficiaries"
        columns={columnsFor(businessId)}
        rows={rows}
        rowKey={(row) => row.beneficiaryId}
        rowHeader="name"
        status={tableStatusOf(list)}
        emptyMessage={status ? `No ${status.toLowerCase()} beneficiaries.` : 'No beneficiaries yet.'}
        errorMessage="The beneficiaries could not be loaded."
        onOpen={(row, { beside }) => openRow(row, beside)}
        firstRowNumber={(pageNumber - 1) * pageSize + 1}
        totalRows={list.data?.numberOfResults ?? 0}
      />
      {list.data && list.data.numberOfResults > 0 ? (
        <Pagination
          label="Beneficiary pages"
          pageNumber={pageNumber}
          pageSize={pageSize}
          pageSizes={pageSizes}
          rowsOnPage={rows.length}
          total={list.data.numberOfResults}
          onPageChange={(next) => goTo({ pageNumber: next, pageSize, status })}
          onPageSizeChange={(next) => goTo({ pageNumber: 1, pageSize: next, status })}
        />
      ) : null}
      <BeneficiaryFormDialog open={formOpen} busy={create.isPending} onClose={() => setFormOpen(false)} onSubmit={(body) => create.mutate(body)} />
    </section>
  );
}
