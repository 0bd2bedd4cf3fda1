// One stored customer: names, contact, addresses (a phone type of Unknown is not shown, spec) and the data kept
// about them. 'Export this customer's data' (Shift+S) downloads a JSON file; erasing a data item or the customer
// (Shift+Backspace) asks first, and erases a saved card's vault row too. Shift+E changes the customer under the
// version rule (a stale save answers 409 and the shell asks 'Someone updated this view'); leaving asks first.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { userQueries } from '../../src/api/user-queries.ts';
import { customerDataKindLabels } from '../../src/contract/customers.ts';
import type { Customer, CustomerDataItem } from '../../src/contract/customer-schemas.ts';
import { formatDate, formatDateTime } from '../../src/format/dates.ts';
import { type PaneProps, type PaneRequestHandlers, useLeaveFormGuard, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { useVersionedSave } from '../record/versioned-save.ts';
import { contextListKey } from '../../src/api/context-list-queries.ts';
import { RecordChangedNotice, useVersionedDraft } from '../../src/ui/record-changed.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { ConfirmDialog } from '../../src/ui/confirm-dialog.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { customerQueries, downloadCustomerData, eraseCustomer, eraseCustomerData, updateCustomer } from './customer-queries.ts';
import { customerBodyOf, customerDraftOf, customerDraftProblems, CustomerFormDialog } from './customer-form.tsx';
import '../../src/ui/form-field.css';
import '../watch-list/watch-list.css';

type Address = NonNullable<Customer['billingAddress']>;

/** Address lines as shown; phone numbers with their type unless the type is Unknown. */
export function addressLines(address: Address): string[] {
  const name = [address.title, address.firstName, address.middleName, address.lastName].filter(Boolean).join(' ');
  const phone = (number: string | null | undefined, type: string | null | undefined) =>
    number ? (type && type !== 'Unknown' ? `${number} (${type})` : number) : null;
  return [
    name,
    [address.organisation, address.department].filter(Boolean).join(', '),
    address.addressLine1,
    address.addressLine2,
    [address.zipCode, address.city].filter(Boolean).join(' '),
    [address.stateProvince, address.countryIso3166Alpha2].filter(Boolean).join(', '),
    phone(address.phoneNumber1, address.phoneNumber1Type),
    phone(address.phoneNumber2, address.phoneNumber2Type),
  ].filter((line): line is string => Boolean(line));
}

export function CustomerDetailPane({ params }: PaneProps) {
  const businessId = params.businessId ?? '';
  const merchantId = params.merchantId ?? '';
  const customerId = params.customerId ?? '';
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const detail = useQuery(customerQueries.detail(businessId, merchantId, customerId));
  const data = useQuery(customerQueries.data(businessId, merchantId, customerId));
  const permissions = useQuery(
    userQueries.permissions(`/user/businesses/${encodeURIComponent(businessId)}/merchants/${encodeURIComponent(merchantId)}/permissions`),
  );
  const canErase = permissions.data?.includes('Mapi.Customers.Update') === true;
  const [confirm, setConfirm] = useState<{ kind: 'customer' } | { kind: 'item'; item: CustomerDataItem } | null>(null);
  const erase = useMutation({
    mutationFn: async (target: NonNullable<typeof confirm>) =>
      target.kind === 'customer'
        ? eraseCustomer(businessId, merchantId, customerId)
        : eraseCustomerData(businessId, merchantId, customerId, target.item.dataId),
    onSuccess: async (_answer, target) => {
      setConfirm(null);
      if (target.kind === 'customer') {
        queryClient.removeQueries({ queryKey: customerQueries.detail(businessId, merchantId, customerId).queryKey });
        await queryClient.invalidateQueries({ queryKey: contextListKey('customers') });
        showToast({ kind: 'success', message: 'The customer and all their data were erased.' });
        navigate(`/business/${encodeURIComponent(businessId)}/merchants/${encodeURIComponent(merchantId)}/customers`);
      } else {
        await queryClient.invalidateQueries({ queryKey: customerQueries.all });
        showToast({ kind: 'success', message: `${customerDataKindLabels[target.item.kind]} erased.` });
      }
    },
  });
  const exportData = useMutation({
    mutationFn: () => downloadCustomerData(businessId, merchantId, customerId, detail.data?.reference ?? customerId),
    onSuccess: () => showToast({ kind: 'success', message: "The customer's data was exported." }),
  });
  const customer = detail.data;
  const editor = useVersionedDraft(customer, customerDraftOf);
  useLeaveFormGuard(editor.dirty);
  const firstField = useRef<HTMLInputElement>(null);
  const save = useVersionedSave({
    editor,
    record: customerQueries.detail(businessId, merchantId, customerId),
    save: (edited: NonNullable<typeof editor.draft>, version) => {
      if (!customer) throw new Error('no customer to save');
      return updateCustomer(businessId, merchantId, customerId, { ...customerBodyOf(edited, customer), version });
    },
    onSaved: async () => {
      await queryClient.invalidateQueries({ queryKey: contextListKey('customers') });
      showToast({ kind: 'success', message: 'Customer saved.' });
    },
  });
  const startEditing = () => {
    if (customer && canErase) editor.start();
  };
  const handlers: PaneRequestHandlers = {};
  if (customer && confirm === null && !editor.editing) {
    handlers.exportRecord = () => exportData.mutate();
    if (canErase) {
      handlers.eraseRecord = () => setConfirm({ kind: 'customer' });
      handlers.edit = startEditing;
    }
  }
  usePaneCapabilities(handlers);

  if (detail.isPending) return <Skeleton lines={6} label="Loading the customer" />;
  if (detail.isError || !customer)
    return (
      <p role="alert" className="risk-pane">
        The customer could not be loaded.
      </p>
    );
  const items = data.data?.results ?? [];
  return (
    <section className="risk-pane" aria-labelledby="customer-title">
      <header className="risk-header">
        <h1 id="customer-title">{[customer.title, customer.firstName, customer.middleName, customer.lastName].filter(Boolean).join(' ')}</h1>
        <div className="risk-actions">
          <button type="button" className="button" disabled={exportData.isPending} onClick={() => exportData.mutate()}>
            Export this customer's data
          </button>
          {canErase ? (
            <button type="button" className="button" onClick={startEditing}>
              Edit customer
            </button>
          ) : null}
          {canErase ? (
            <button type="button" className="button button-danger" onClick={() => setConfirm({ kind: 'customer' })}>
              Erase customer
            </button>
          ) : null}
        </div>
      </header>
      <dl className="risk-facts">
        <dt>Reference</dt>
        <dd>{customer.reference}</dd>
        <dt>Email</dt>
        <dd>{customer.emailAddress ?? '—'}</dd>
        <dt>Date of birth</dt>
        <dd>{customer.dateOfBirth ? formatDate(customer.dateOfBirth) : '—'}</dd>
        <dt>Saved cards</dt>
        <dd>{customer.savedCards}</dd>
        <dt>Customer since</dt>
        <dd>{formatDateTime(customer.createdUtc)}</dd>
        {customer.billingAddress ? (
          <>
            <dt>Billing address</dt>
            <dd>
              {addressLines(customer.billingAddress).map((line) => (
                <div key={line}>{line}</div>
              ))}
            </dd>
          </>
        ) : null}
        {customer.shippingAddress ? (
          <>
            <dt>Shipping address</dt>
            <dd>
              {addressLines(customer.shippingAddress).map((line) => (
                <div key={line}>{line}</div>
              ))}
            </dd>
          </>
        ) : null}
      </dl>
      <h2>Stored data</h2>
      {data.isPending ? (
        <Skeleton lines={2} label="Loading the stored data" />
      ) : items.length === 0 ? (
        <p>Nothing else is stored about this customer.</p>
      ) : (
        <table className="notifications-table" aria-label="Stored data">
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">What</th>
              <th scope="col">Stored</th>
              {canErase ? <th scope="col">Erase</th> : null}
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.dataId}>
                <th scope="row">{customerDataKindLabels[item.kind]}</th>
                <td>{item.description}</td>
                <td>{formatDate(item.createdUtc)}</td>
                {canErase ? (
                  <td>
                    <button type="button" className="button" onClick={() => setConfirm({ kind: 'item', item })}>
                      Erase {customerDataKindLabels[item.kind].toLowerCase()}: {item.description}
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CustomerFormDialog
        open={editor.editing}
        title="Edit customer"
        submitLabel="Save customer"
        draft={editor.draft ?? customerDraftOf(customer)}
        onChange={editor.setDraft}
        tried={editor.tried}
        busy={save.isPending}
        onCancel={editor.stop}
        firstField={firstField}
        notice={
          <>
            <RecordChangedNotice what="customer" editor={editor} />
            {editor.theirs ? (
              <p className="form-warning" role="status">
                Someone else saved this customer meanwhile (now {editor.theirs.firstName} {editor.theirs.lastName}, reference {editor.theirs.reference}). Saving
                again replaces their version with yours.
              </p>
            ) : null}
          </>
        }
        onSubmit={() => {
          editor.setTried(true);
          if (editor.draft && Object.keys(customerDraftProblems(editor.draft)).length === 0) save.mutate({ draft: editor.draft, version: editor.version() });
        }}
      />
      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.kind === 'customer' ? 'Erase this customer?' : 'Erase this item?'}
        text={
          confirm?.kind === 'customer'
            ? 'The customer, every item stored about them and their saved cards are erased for good. This cannot be undone.'
            : confirm?.kind === 'item'
              ? `${customerDataKindLabels[confirm.item.kind]} ${confirm.item.description} is erased for good.`
              : ''
        }
        confirmLabel="Erase"
        cancelLabel="Keep"
        onConfirm={() => {
          if (confirm) erase.mutate(confirm);
        }}
        onCancel={() => setConfirm(null)}
      />
    </section>
  );
}
