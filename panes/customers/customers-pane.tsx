// A merchant's stored customers: search by reference, name or email; j / k, Enter, Shift+Enter. Those
// who may change customers add one with Shift+N (or 'Add a customer'); the new customer's screen opens after.
// Under a business or a partner the list spans their merchants: a Merchant column names each row's, a row opens
// the customer under its merchant (where the record lives), and adding is done under a merchant.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { userQueries } from '../../src/api/user-queries.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { useLeaveFormGuard } from '../../src/state/pane-scope.tsx';
import type { CustomerListItem } from '../../src/contract/customer-schemas.ts';
import { defaultPageSize, pageSizes } from '../../src/contract/list-query.ts';
import { formatDate } from '../../src/format/dates.ts';
import { type PaneProps, type PaneRequestHandlers, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import type { DataTableColumn } from '../../src/ui/data-table/data-table.tsx';
import { OverviewTable } from '../../src/ui/data-table/overview-table.tsx';
import { contextListKey, contextListQuery, type ListScope, listScopeOf } from '../../src/api/context-list-queries.ts';
import { createCustomer } from './customer-queries.ts';
import { customerBodyOf, customerDraftProblems, CustomerFormDialog, emptyCustomerDraft, type CustomerDraft } from './customer-form.tsx';
import { tableStatusOf } from '../../src/ui/data-table/table-status.ts';
import { useRowCursor } from '../overview/row-cursor.ts';
import '../../src/ui/form-field.css';
import '../../src/ui/data-table/data-table.css';
import '../watch-list/watch-list.css';

export const customerPath = (businessId: string, merchantId: string, customerId: string) =>
  `/business/${encodeURIComponent(businessId)}/merchants/${encodeURIComponent(merchantId)}/customers/${encodeURIComponent(customerId)}`;

const e = encodeURIComponent;
/** The pane's own path for a scope (the route table's customers, businessCustomers and partnerCustomers rows). */
const listRoutePath = (scope: ListScope) =>
  scope.level === 'partner'
    ? `/partners/${e(scope.partnerId)}/customers`
    : scope.level === 'business'
      ? `/business/${e(scope.businessId)}/customers`
      : `/business/${e(scope.businessId)}/merchants/${e(scope.merchantId)}/customers`;

export function CustomersPane({ params, search }: PaneProps) {
  const listScope = listScopeOf(params);
  const spansMerchants = listScope.level !== 'merchant';
  const businessId = params.businessId ?? '';
  const merchantId = params.merchantId ?? '';
  const query = new URLSearchParams(search);
  const pageNumber = Math.max(1, Number(query.get('pagenumber')) || 1);
  const pageSize = (pageSizes as readonly number[]).includes(Number(query.get('pagesize'))) ? Number(query.get('pagesize')) : defaultPageSize;
  const searchTerm = (query.get('search') ?? '').slice(0, 100);
  const [draft, setDraft] = useState(searchTerm);
  const [, navigate] = useLocation();
  const list = useQuery(
    contextListQuery('customers', 'customerList', listScope, {
      pagenumber: String(pageNumber),
      pagesize: String(pageSize),
      ...(searchTerm ? { searchterm: `[eq]${searchTerm}` } : {}),
    }),
  );
  const rows = useMemo(() => (list.isError ? [] : (list.data?.results ?? [])), [list.isError, list.data]);
  const searchField = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const permissions = useQuery({
    ...userQueries.permissions(`/user/businesses/${e(businessId)}/merchants/${e(merchantId)}/permissions`),
    enabled: !spansMerchants,
  });
  // A customer is stored under its merchant: a list across merchants adds none.
  const canAdd = !spansMerchants && permissions.data?.includes('Mapi.Customers.Update') === true;
  const [newCustomer, setNewCustomer] = useState<CustomerDraft | null>(null);
  const [tried, setTried] = useState(false);
  useLeaveFormGuard(newCustomer !== null && JSON.stringify(newCustomer) !== JSON.stringify(emptyCustomerDraft));
  const openForm = () => {
    setTried(false);
    setNewCustomer(emptyCustomerDraft);
  };
  const create = useMutation({
    mutationFn: (next: CustomerDraft) => createCustomer(businessId, merchantId, customerBodyOf(next)),
    onSuccess: async (created) => {
      setNewCustomer(null);
      await queryClient.invalidateQueries({ queryKey: contextListKey('customers') });
      showToast({ kind: 'success', message: `Customer ${created.reference} added.` });
      navigate(customerPath(businessId, merchantId, created.customerId));
    },
  });
  const here = listRoutePath(listScope);
  const goTo = (next: { pageNumber: number; pageSize: number; search: string }) => {
    const params = new URLSearchParams({ pagenumber: String(next.pageNumber), pagesize: String(next.pageSize) });
    if (next.search) params.set('search', next.search);
    navigate(`${here}?${params.toString()}`);
  };
  const columns: readonly DataTableColumn<CustomerListItem>[] = [
    {
      id: 'name',
      header: 'Customer',
      cell: (row) => (
        <a className="data-table-link is-name" href={customerPath(row.businessId, row.merchantId, row.customerId)}>{`${row.lastName}, ${row.firstName}`}</a>
      ),
    },
    ...(spansMerchants ? [{ id: 'merchant', header: 'Merchant', cell: (row: CustomerListItem) => row.merchantName ?? row.merchantId }] : []),
    { id: 'reference', header: 'Reference', cell: (row) => row.reference },
    { id: 'email', header: 'Email', cell: (row) => row.emailAddress ?? '' },
    { id: 'city', header: 'City', cell: (row) => [row.city, row.countryIso3166Alpha2].filter(Boolean).join(', ') },
    { id: 'created', header: 'Customer since', cell: (row) => formatDate(row.createdUtc) },
  ];
  const { rowHandlers, table } = useRowCursor(rows, (row) => customerPath(row.businessId, row.merchantId, row.customerId));
  const handlers: PaneRequestHandlers = { search: () => searchField.current?.focus(), ...rowHandlers(newCustomer === null) };
  if (canAdd && newCustomer === null) handlers.newItem = openForm;
  usePaneCapabilities(handlers);
  return (
    <section className="risk-pane" aria-labelledby="customers-title">
      <header className="risk-header">
        <h1 id="customers-title">Customers</h1>
        {canAdd ? (
          <button type="button" className="button button-primary" onClick={openForm}>
            Add a customer
          </button>
        ) : null}
      </header>
      {spansMerchants ? (
        <p>{listScope.level === 'partner' ? "Every merchant's customers across this partner's businesses." : "Every merchant's customers in this business."}</p>
      ) : null}
      <form
        role="search"
        aria-label="Customer search"
        className="risk-actions"
        onSubmit={(event) => {
          event.preventDefault();
          goTo({ pageNumber: 1, pageSize, search: draft.trim() });
        }}
      >
        <label>
          Search reference, name or email{' '}
          <input ref={searchField} type="search" value={draft} maxLength={100} onChange={(event) => setDraft(event.target.value)} />
        </label>
        <button type="submit" className="button">
          Search
        </button>
      </form>
      <OverviewTable
        {...table}
        resetKey={`${search}|${list.dataUpdatedAt}`}
        caption="Customers"
        noun="customers"
        columns={columns}
        rowKey={(row) => row.customerId}
        rowHeader="name"
        status={tableStatusOf(list)}
        emptyMessage={
          searchTerm
            ? 'No customer matches this search.'
            : spansMerchants
              ? `No merchant of this ${listScope.level} has stored customers.`
              : 'This merchant has no stored customers.'
        }
        view={{ pageNumber, pageSize }}
        total={list.data?.numberOfResults ?? 0}
        pageSizes={pageSizes}
        pagesLabel="Customer pages"
        pagerOnlyWithRows
        onPageChange={(next) => goTo({ pageNumber: next, pageSize, search: searchTerm })}
        onPageSizeChange={(next) => goTo({ pageNumber: 1, pageSize: next, search: searchTerm })}
      />
      <CustomerFormDialog
        open={newCustomer !== null}
        title="Add a customer"
        submitLabel="Add customer"
        draft={newCustomer ?? emptyCustomerDraft}
        onChange={setNewCustomer}
        tried={tried}
        busy={create.isPending}
        onCancel={() => setNewCustomer(null)}
        onSubmit={() => {
          setTried(true);
          if (newCustomer && Object.keys(customerDraftProblems(newCustomer)).length === 0) create.mutate(newCustomer);
        }}
      />
    </section>
  );
}
