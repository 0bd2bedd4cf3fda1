// The users overview (and a partner's users under /partners/{id}/users): the table kit with server paging, sorting
// and filters on name, email, role, status and business, the state in the pane's address so a link reproduces the
// view. Shift+N adds a user; Enter opens one, Shift+Enter opens it beside.
import { type FormEvent, useId, useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import type { ContextSelections } from '../../src/contract/context.ts';
import { contextStore } from '../../src/state/context-store.ts';
import { permissionScope, sessionStore } from '../../src/state/session-store.ts';
import { compactFilters } from '../../src/contract/list-state.ts';
import { roleLabels, roleNames, type RoleName } from '../../src/contract/permissions.ts';
import type { UserListItem } from '../../src/contract/user-schemas.ts';
import { statusLabels, userExportColumnLabels, userExportColumns, userListUrlSpec, userStatuses, type UserExportColumn } from '../../src/contract/users.ts';
import { ExportDialog, type ExportChoice } from '../../src/ui/data-table/export-dialog.tsx';
import { formatShortDate } from '../../src/format/dates.ts';
import { type PaneProps, usePaneCapabilities, usePaneScope } from '../../src/state/pane-scope.tsx';
import { openBeside } from '../../src/state/workspace-store.ts';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';
import { useDebouncedApply, useFilterDraft } from '../../src/ui/data-table/filter-draft.ts';
import { OverviewTable } from '../../src/ui/data-table/overview-table.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { userAdminQueries } from './user-queries.ts';
import { bulkActionIndex, type BulkAction, type BulkJob } from '../../src/contract/bulk-jobs.ts';
import { SelectionBar } from '../../src/ui/data-table/selection-bar.tsx';
import {
  emptySelection,
  hasSelection,
  selectAllMatching,
  selectedCount,
  selectionRequest,
  type RowSelection,
} from '../../src/ui/data-table/selection-model.ts';
import { BulkActionDialog } from '../bulk-jobs/bulk-action-dialog.tsx';
import { startBulkJob } from '../bulk-jobs/bulk-job-queries.ts';
import { DatabaseFilterPresets } from '../overview/database-presets.tsx';
import { useOverviewState } from '../overview/use-overview-state.ts';
import '../../src/ui/data-table/data-table.css';
import './users.css';

const textFilter = (value: string) => (value.trim() ? `[eq]${value.trim()}` : undefined);
const textOf = (filter: string | undefined) => filter?.replace(/^\[eq\]/, '') ?? '';

export function UserStatusChip({ status }: { status: UserListItem['status'] }) {
  const tone = status === 'active' ? 'success' : status === 'locked' ? 'danger' : 'warning';
  return (
    <span className="status-chip" data-tone={tone}>
      {statusLabels[status]}
    </span>
  );
}

export const fullName = (user: { givenName: string; familyName: string; email: string }) => `${user.givenName} ${user.familyName}`.trim() || user.email;

export function userPath(userId: string, partnerId?: string) {
  return partnerId ? `/partners/${encodeURIComponent(partnerId)}/users/${encodeURIComponent(userId)}` : `/users/${encodeURIComponent(userId)}`;
}

function columnsFor(partnerId?: string): readonly DataTableColumn<UserListItem>[] {
  return [
    {
      id: 'name',
      header: 'Name',
      sortField: 'name',
      width: 'minmax(10rem, 1.2fr)',
      cell: (row) => (
        <a className="data-table-link is-name" href={userPath(row.userId, partnerId)} tabIndex={-1}>
          {fullName(row)}
        </a>
      ),
    },
    { id: 'email', header: 'Email', sortField: 'email', width: 'minmax(12rem, 1.4fr)', cell: (row) => row.email },
    { id: 'status', header: 'Status', width: '7rem', cell: (row) => <UserStatusChip status={row.status} /> },
    {
      id: 'roles',
      header: 'Roles',
      width: 'minmax(9rem, 1fr)',
      cell: (row) => row.roles.map((role) => roleLabels[role as RoleName] ?? role).join(', ') || '—',
    },
    { id: 'businesses', header: 'Businesses', width: 'minmax(10rem, 1.2fr)', cell: (row) => (row.internal ? 'Internal' : row.businessNames.join(', ') || '—') },
    {
      id: 'lastSignIn',
      header: 'Last sign-in',
      sortField: 'lastSignIn',
      width: '8.5rem',
      cell: (row) => (row.lastSignInUtc ? formatShortDate(row.lastSignInUtc) : 'Never'),
    },
    { id: 'created', header: 'Created', sortField: 'created', width: '8.5rem', cell: (row) => formatShortDate(row.createdUtc) },
  ];
}

export function UsersPane({ params, search }: PaneProps) {
  const partnerId = params.partnerId;
  const [, navigate] = useLocation();
  const scope = usePaneScope();
  const columns = useMemo(() => columnsFor(partnerId), [partnerId]);
  const overview = useOverviewState({
    search,
    listSpec: userListUrlSpec,
    query: (state) => userAdminQueries.list(state, partnerId),
    rowPath: (row: UserListItem) => userPath(row.userId, partnerId),
    columns,
    selectionScope: partnerId,
  });
  const { state, applyFilters, rows, total, selection, setSelection } = overview;

  // Typed filters apply 400 ms after the last key (or on Enter); the drafts follow the address (back, a link).
  const appliedKey = `${state.filters.name ?? ''}|${state.filters.email ?? ''}`;
  const draftsOf = (key: string) => {
    const [name = '', email = ''] = key.split('|');
    return { name: textOf(name), email: textOf(email) };
  };
  const keyOf = (drafts: { name: string; email: string }) => `${textFilter(drafts.name) ?? ''}|${textFilter(drafts.email) ?? ''}`;
  const [drafts, setDrafts] = useFilterDraft(appliedKey, draftsOf, (draft, applied) => keyOf(draft) === applied);
  const typedFilters = { name: textFilter(drafts.name), email: textFilter(drafts.email) };
  useDebouncedApply(keyOf(drafts), appliedKey, () => applyFilters(typedFilters, { replace: true }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    applyFilters(typedFilters);
  };

  const ids = { name: useId(), email: useId(), role: useId(), status: useId() };
  const addPath = partnerId ? `/partners/${encodeURIComponent(partnerId)}/users/add` : '/users/add';
  // Adding users is offered only with the permission the server checks (not to the read-only role).
  const { applied } = useSnapshot(contextStore);
  const session = useSnapshot(sessionStore);
  const mayAdd = (session.permissions[permissionScope(applied as ContextSelections).key] ?? []).includes('Mapi.Users.Create');
  // Selection and the bulk lock: over the overview's own rows (every user the caller reads, or the
  // partner's). The server checks each user as the single lock does (managed whole, not oneself) and lists the
  // refused ones in the job's result.
  const [lockOpen, setLockOpen] = useState(false);
  const startLock = (key: string) =>
    startBulkJob(
      {
        area: 'users',
        action: 'lock',
        context: partnerId ? { level: 'partner', partnerId } : { level: 'all' },
        selection: selectionRequest(selection, state.filters),
      },
      key,
    );
  const lockStarted = (job: BulkJob) => {
    setLockOpen(false);
    setSelection(emptySelection);
    showToast({ kind: 'success', message: 'The bulk job has started.' });
    openBeside(`/bulk-jobs/${encodeURIComponent(job.id)}`, scope ? { afterPaneId: scope.paneId } : {});
  };
  const selectedUsers = selectedCount(selection, total);
  // Export: the selection when there is one, else every user matching the filters, as a report in My
  // report queue; the server writes only whom GET /user/users lets the caller read, with the roles they may see.
  const [exportSelection, setExportSelection] = useState<RowSelection | null>(null);
  const [exportKey, setExportKey] = useState('');
  const openExport = () => {
    setExportKey(globalThis.crypto?.randomUUID?.() ?? `export-${Date.now()}`);
    setExportSelection(hasSelection(selection) ? selection : selectAllMatching());
  };
  const visibleExportIds = columns.map((column) => column.id).filter((id): id is UserExportColumn => (userExportColumns as readonly string[]).includes(id));
  const startExport = (choice: ExportChoice) => {
    if (!exportSelection) return;
    void startBulkJob(
      {
        area: 'users',
        action: 'export',
        context: partnerId ? { level: 'partner', partnerId } : { level: 'all' },
        selection: selectionRequest(exportSelection, state.filters),
        params: { fileType: choice.fileType, columns: choice.columns === 'visible' ? visibleExportIds : [...userExportColumns] },
      },
      exportKey,
    ).then(
      (job) => {
        setExportSelection(null);
        showToast({ kind: 'success', message: 'The export is being made: it will wait for you in My report queue.' });
        openBeside(`/bulk-jobs/${encodeURIComponent(job.id)}`, scope ? { afterPaneId: scope.paneId } : {});
      },
      () => showToast({ kind: 'danger', message: 'The export could not be queued.' }),
    );
  };
  usePaneCapabilities({
    export: openExport,
    search: () => overview.searchInput.current?.focus(),
    ...overview.selectionHandlers,
    bulkAction: (argument) => {
      const action = (Object.entries(bulkActionIndex).find(([, index]) => index === argument)?.[0] ?? null) as BulkAction | null;
      if (action === 'lock' && hasSelection(selection)) setLockOpen(true);
      if (action === 'export') openExport();
    },
    ...(mayAdd ? { newItem: () => navigate(addPath) } : {}),
    ...overview.rowHandlers(!lockOpen && !exportSelection),
  });

  const title = partnerId ? 'Partner users' : 'Users';
  return (
    <div className="users-pane">
      <header className="users-header">
        <h1>{title}</h1>
        <div className="users-tools">
          <DatabaseFilterPresets
            page="users"
            businessId={partnerId ? null : ((applied as ContextSelections).business?.id ?? null)}
            filters={compactFilters({ ...state.filters, ...typedFilters })}
            onApply={overview.showFilters}
            defaultApplies={Object.keys(state.filters).length === 0}
          />
          <button type="button" className="button" onClick={openExport}>
            Export
          </button>
          {mayAdd ? (
            <a className="button button-primary" href={addPath}>
              Add user <kbd>Shift</kbd>+<kbd>N</kbd>
            </a>
          ) : null}
        </div>
      </header>
      <form className="filter-bar" role="search" aria-label="User filters" onSubmit={submit}>
        <div className="filter-field">
          <label htmlFor={ids.name}>Name</label>
          <input
            id={ids.name}
            ref={overview.searchInput}
            type="search"
            value={drafts.name}
            maxLength={100}
            onChange={(event) => setDrafts({ ...drafts, name: event.target.value })}
          />
        </div>
        <div className="filter-field">
          <label htmlFor={ids.email}>Email</label>
          <input id={ids.email} type="search" value={drafts.email} maxLength={100} onChange={(event) => setDrafts({ ...drafts, email: event.target.value })} />
        </div>
        <div className="filter-field">
          <label htmlFor={ids.role}>Role</label>
          <select id={ids.role} value={textOf(state.filters.role)} onChange={(event) => applyFilters({ role: textFilter(event.target.value) })}>
            <option value="">Any role</option>
            {roleNames.map((role) => (
              <option key={role} value={role}>
                {roleLabels[role]}
              </option>
            ))}
          </select>
        </div>
        <div className="filter-field">
          <label htmlFor={ids.status}>Status</label>
          <select id={ids.status} value={textOf(state.filters.status)} onChange={(event) => applyFilters({ status: textFilter(event.target.value) })}>
            <option value="">Any status</option>
            {userStatuses.map((status) => (
              <option key={status} value={status}>
                {statusLabels[status]}
              </option>
            ))}
          </select>
        </div>
        {Object.keys(state.filters).length > 0 ? (
          <button
            type="button"
            className="button button-ghost"
            onClick={() => {
              setDrafts({ name: '', email: '' });
              overview.showFilters({});
            }}
          >
            Clear filters
          </button>
        ) : null}
        <button type="submit" className="visually-hidden" tabIndex={-1}>
          Apply filters
        </button>
      </form>
      <SelectionBar
        selection={selection}
        total={total}
        noun="users"
        onSelectAllMatching={() => setSelection(selectAllMatching())}
        onClear={() => setSelection(emptySelection)}
      >
        <button type="button" className="button" onClick={openExport}>
          Export selected…
        </button>
        <button type="button" className="button" onClick={() => setLockOpen(true)}>
          Lock sign-in…
        </button>
      </SelectionBar>
      <OverviewTable
        {...overview.table}
        selection={{ value: selection, onChange: setSelection, rowLabel: (key) => `Select ${rows.find((row) => row.userId === key)?.email ?? key}` }}
        caption={title}
        columns={columns}
        rowKey={(row) => row.userId}
        rowHeader="name"
        noun="users"
        pagesLabel="User pages"
      />
      <ExportDialog
        open={exportSelection !== null}
        onClose={() => setExportSelection(null)}
        rowCount={exportSelection ? selectedCount(exportSelection, total) : total}
        selectedOnly={exportSelection !== null && (!exportSelection.allMatching || exportSelection.excluded.size > 0)}
        visibleColumns={visibleExportIds.map((id) => userExportColumnLabels[id])}
        allColumns={userExportColumns.map((id) => userExportColumnLabels[id])}
        noun="users"
        busy={false}
        onExport={startExport}
      />
      <BulkActionDialog
        open={lockOpen}
        title="Lock sign-in"
        summary={`${new Intl.NumberFormat('en-GB').format(selectedUsers)} ${selectedUsers === 1 ? 'user' : 'users'} will be locked until unlocked: they are signed out everywhere at once. You are never locked yourself.`}
        onClose={() => setLockOpen(false)}
        onStart={startLock}
        onStarted={lockStarted}
      />
    </div>
  );
}
