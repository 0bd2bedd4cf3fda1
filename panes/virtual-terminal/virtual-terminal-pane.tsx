// The virtual terminal: keyboard-fast MOTO order entry for call-centre staff. Tab walks the form in the
// order an agent hears it (order, customer, addresses, lines, card); Ctrl+Enter charges; Enter in a field never
// submits by accident. Totals are live in the currency's decimals. A stored customer fills the addresses and offers
// their saved cards. The result panel says paid or declined (with the reason), links the new payment job (open
// beside) and offers 'New order' keeping or clearing the customer; a decline keeps the form and offers another
// attempt at the same order ('Try again' with the same card, 'Try another card'): a new payment on the declined
// payment job, never a second job. A merchant reference used within 24 hours asks before charging again. The draft (never the card) survives a reload of the pane.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { api, gatewayApi } from '../../src/api/api-client.ts';
import { isApiError } from '../../src/api/api-error.ts';
import { validate } from '../../src/api/validate.ts';
import { contextApplyPath } from '../../src/state/context-links.ts';
import type { ContextSelections } from '../../src/contract/context.ts';
import { formatMoney } from '../../src/contract/payment-jobs.ts';
import { cardBrand, cardDigits, formatCardNumber, toMinor, type VirtualTerminalSettings } from '../../src/contract/virtual-terminal.ts';
import { contextStore } from '../../src/state/context-store.ts';
import { type PaneProps, type PaneRequestHandlers, useLeaveFormGuard, usePaneCapabilities, usePaneScope } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { openBeside } from '../../src/state/workspace-store.ts';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import {
  type AddressForm,
  attemptBody,
  clampQuantity,
  draftOf,
  emptyLine,
  emptyOrder,
  formFromDraft,
  isBlankOrder,
  liveTotals,
  nextOrder,
  orderBody,
  orderKeyOf,
  orderProblems,
  type OrderForm,
  orderLineTypes,
  phoneNumberTypes,
  salutations,
} from './order-form.ts';
import './virtual-terminal.css';
import { useFocusRequest } from '../../src/ui/focus-request.ts';

type Country = { code: string; name: string };
type Option = { value: string; name: string };
type CustomerItem = { customerId: string; reference: string; firstName: string; lastName: string; emailAddress: string | null };
type Customer = CustomerItem & {
  title: string | null;
  middleName: string | null;
  dateOfBirth: string | null;
  billingAddress: Partial<Record<keyof AddressForm, string | null>> | null;
  shippingAddress: Partial<Record<keyof AddressForm, string | null>> | null;
};
type SavedCard = { savedCardId: string; maskedCardNumber: string; expiryMonth: number; expiryYear: number; cardholderName: string | null };
type OrderResult = {
  result: 'paid' | 'declined' | 'linkSent';
  declineReason: string | null;
  paymentJobReference: string;
  transactionReference: string | null;
  amount: number;
  currency: string;
  maskedCardNumber: string | null;
  savedCardId: string | null;
  confirmationEmailQueued: boolean;
  message: string;
  paymentUrl?: string;
  expirationDateTimeUtc?: string;
  customerId?: string | null;
  customerCreated?: boolean;
  attempt?: number;
};

const e = encodeURIComponent;
const lineTypeLabel: Record<string, string> = {
  digitalItem: 'Digital item',
  discount: 'Discount',
  giftCard: 'Gift card',
  paymentCost: 'Payment cost',
  physicalItem: 'Physical item',
  shippingCost: 'Shipping cost',
  shopCredit: 'Shop credit',
};
const draftKey = (configurationId: string) => `virtual-terminal-draft:${configurationId}`;
const newKey = () => globalThis.crypto?.randomUUID?.() ?? `vt-${Date.now()}-${Math.random().toString(36).slice(2)}`;

function Field({
  label,
  error,
  children,
  hint,
}: {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return (
    <div className="vt-field">
      <label htmlFor={id}>{label}</label>
      {children({ id, ...(error ? { 'aria-invalid': true as const } : {}), ...(described ? { 'aria-describedby': described } : {}) })}
      {hint ? (
        <span id={`${id}-hint`} className="vt-hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={`${id}-error`} className="vt-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** The retryDeclined request's argument for another card (commands/virtual-terminal/retry-declined.ts). */
export const anotherCardAttempt = 1;

/** The newOrder request's argument for a new order with a new customer (commands/virtual-terminal/new-order.ts). */
export const newCustomerOrder = 1;

export function VirtualTerminalPane({ params }: PaneProps) {
  const configurationId = params.configurationId ?? '';
  const { applied } = useSnapshot(contextStore);
  const selections = applied as ContextSelections;
  const businessId = selections.business?.id ?? '';
  const merchantId = selections.merchant?.id ?? '';
  const base = businessId && merchantId ? `/businesses/${e(businessId)}/merchants/${e(merchantId)}/configurations/${e(configurationId)}/virtual-terminal` : '';
  const settings = useQuery({
    queryKey: ['virtualTerminal', base, 'settings'],
    queryFn: ({ signal }) => api.get<VirtualTerminalSettings>(`${base}/settings`, { signal }),
    enabled: base !== '',
  });
  if (!base)
    return (
      <div className="vt-pane">
        <h1>Virtual terminal</h1>
        <p role="alert">Choose a merchant and one of its configurations as your context to take an order.</p>
      </div>
    );
  if (settings.isPending)
    return (
      <div className="vt-pane">
        <h1>Virtual terminal</h1>
        <Skeleton lines={8} label="Loading the virtual terminal" />
      </div>
    );
  if (settings.isError || !settings.data) {
    const status = isApiError(settings.error) ? settings.error.status : 0;
    return (
      <div className="vt-pane">
        <h1>Virtual terminal</h1>
        <p role="alert">
          {status === 404
            ? 'The requested record was not found.'
            : status === 403
              ? 'You do not have the correct permissions.'
              : 'The virtual terminal could not be loaded.'}
        </p>
      </div>
    );
  }
  if (!settings.data.virtualTerminalMenuEnabled) {
    return (
      <div className="vt-pane">
        <h1>Virtual terminal</h1>
        <p role="alert">
          The virtual terminal is switched off for this configuration. Choose a configuration that takes telephone orders, or ask an administrator to switch it
          on.
        </p>
        <TelephoneConfigurations selections={selections} businessId={businessId} merchantId={merchantId} configurationId={configurationId} />
      </div>
    );
  }
  return <OrderEntry base={base} businessId={businessId} merchantId={merchantId} configurationId={configurationId} settings={settings.data} />;
}

/**
 * The merchant's configurations whose virtual terminal is on, each a link that makes it the context's configuration
 * and opens its order entry (a merchant's first configuration, which the context takes, may be its web shop's).
 */
function TelephoneConfigurations({
  selections,
  businessId,
  merchantId,
  configurationId,
}: {
  selections: ContextSelections;
  businessId: string;
  merchantId: string;
  configurationId: string;
}) {
  const configurations = useQuery({
    queryKey: ['context', 'configurations', businessId, merchantId],
    queryFn: async ({ signal }) =>
      validate(
        'contextConfigurationPage',
        await api.get<unknown>(`/context/businesses/${e(businessId)}/merchants/${e(merchantId)}/configurations`, {
          query: { pagenumber: 1, pagesize: 50 },
          signal,
        }),
      ),
  });
  const open = (configurations.data?.data ?? []).filter((item) => item.switches.virtualTerminalMenuEnabled && item.configurationId !== configurationId);
  if (open.length === 0) return null;
  return (
    <nav aria-label="Configurations that take telephone orders">
      <p>These configurations of {selections.merchant?.title ?? 'this merchant'} take telephone orders:</p>
      <ul>
        {open.map((item) => {
          const route = `/configurations/${e(item.configurationId)}/virtual-terminal`;
          const href = contextApplyPath(route, { ...selections, configuration: { id: item.configurationId, title: item.tradeName, switches: item.switches } });
          return (
            <li key={item.configurationId}>
              <Link href={href}>
                Take orders on {item.tradeName} ({item.configurationId})
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function OrderEntry({
  base,
  businessId,
  merchantId,
  configurationId,
  settings,
}: {
  base: string;
  businessId: string;
  merchantId: string;
  configurationId: string;
  settings: VirtualTerminalSettings;
}) {
  const queryClient = useQueryClient();
  const scope = usePaneScope();
  const blank = useMemo(() => emptyOrder(settings), [settings]);
  const [form, setForm] = useState<OrderForm>(() => formFromDraft(globalThis.sessionStorage?.getItem(draftKey(configurationId)) ?? null, blank));
  const [touched, setTouched] = useState(false);
  // Asked for by a charge that found problems; done once the fields show them (after that render), never before.
  const [problemFocusWanted, setProblemFocusWanted] = useState(0);
  useEffect(() => {
    if (problemFocusWanted > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [problemFocusWanted]);
  const [sending, setSending] = useState(false);
  const [serverErrors, setServerErrors] = useState<string[]>([]);
  const [duplicate, setDuplicate] = useState<{ message: string } | null>(null);
  const [result, setResult] = useState<OrderResult | null>(null);
  // The declined order a charge tries again while the order is unchanged (its payment job; see orderKeyOf).
  const [declinedOrder, setDeclinedOrder] = useState<{ paymentJobReference: string; orderKey: string } | null>(null);
  const cardNumberRef = useRef<HTMLInputElement>(null);
  const [customerSearch, setCustomerSearch] = useState('');
  const idempotencyKey = useRef(newKey());
  const formRef = useRef<HTMLFormElement>(null);
  const referenceRef = useRef<HTMLInputElement>(null);
  const resultRef = useRef<HTMLElement>(null);
  const customerRef = useRef<HTMLParagraphElement>(null);
  const customerSearchRef = useRef<HTMLInputElement>(null);
  const requestFocus = useFocusRequest();
  const now = new Date();
  const problems = orderProblems(form, settings, now);
  const shown = (key: string) => (touched ? problems[key] : undefined);
  const { lines: lineTotals, totals } = liveTotals(form);
  const money = (minor: number) => formatMoney(minor, form.currency);
  const dirty = !isBlankOrder(form, blank) || form.card.cardNumber !== '';
  useLeaveFormGuard(dirty && !sending);

  useEffect(() => {
    try {
      globalThis.sessionStorage?.setItem(draftKey(configurationId), draftOf(form));
    } catch {
      /* storage full or refused: no draft */
    }
  }, [form, configurationId]);

  const countries = useQuery({
    queryKey: ['enumerations', 'countries'],
    queryFn: async ({ signal }) => (await api.get<{ results: Country[] }>('/enumerations/countries', { signal })).results,
    staleTime: Infinity,
  });
  const lineTypes = useQuery({
    queryKey: ['enumerations', 'order-line-types'],
    queryFn: async ({ signal }) => (await api.get<{ results: Option[] }>('/enumerations/order-line-types', { signal })).results,
    staleTime: Infinity,
  });
  const customerPath = `/businesses/${e(businessId)}/merchants/${e(merchantId)}/customers`;
  const customers = useQuery({
    queryKey: ['virtualTerminal', customerPath, 'search', customerSearch.trim()],
    queryFn: ({ signal }) =>
      api.get<{ results: CustomerItem[] }>(customerPath, {
        query: { pagesize: '10', ...(customerSearch.trim() ? { searchterm: `[eq]${customerSearch.trim()}` } : {}) },
        signal,
        handleErrors: false,
      }),
    enabled: customerSearch.trim().length >= 2,
    staleTime: 30_000,
  });
  const savedCards = useQuery({
    queryKey: ['virtualTerminal', base, 'savedCards', form.customerId],
    queryFn: ({ signal }) =>
      gatewayApi.get<{ results: SavedCard[]; savedCardLimit: number }>(`${base}/customers/${e(form.customerId ?? '')}/saved-cards`, { signal }),
    enabled: form.customerId !== null,
  });

  const update = (change: Partial<OrderForm>) => {
    setForm((current) => ({ ...current, ...change }));
    setServerErrors([]);
  };
  const setAddress = (which: 'billing' | 'shipping', field: keyof AddressForm, value: string) =>
    setForm((current) => ({ ...current, [which]: { ...current[which], [field]: value } }));
  const setLine = (index: number, change: Partial<OrderForm['lines'][number]>) =>
    setForm((current) => ({ ...current, lines: current.lines.map((line, at) => (at === index ? { ...line, ...change } : line)) }));
  const addLine = () => {
    setForm((current) => ({ ...current, lines: [...current.lines, emptyLine(settings.defaultOrderLineType)] }));
    requestFocus(() => formRef.current?.querySelector<HTMLElement>('.vt-line:last-of-type select'));
  };
  const removeLine = (index?: number) => {
    const count = form.lines.length;
    if (count <= 1) return;
    const focused = form.lines.findIndex((_line, at) => formRef.current?.querySelectorAll('.vt-line')[at]?.contains(document.activeElement));
    const at = index ?? (focused >= 0 ? focused : count - 1);
    setForm((current) => ({ ...current, lines: current.lines.filter((_line, position) => position !== at) }));
    // The line and its Remove button are gone: the line now in its place (or the one before the last) takes focus.
    const next = Math.min(at, count - 2);
    requestFocus(() => formRef.current?.querySelectorAll<HTMLElement>('.vt-line')[next]?.querySelector<HTMLElement>('select, input'));
  };

  const pickCustomer = async (item: CustomerItem) => {
    const customer = await api.get<Customer>(`${customerPath}/${e(item.customerId)}`);
    const addressOf = (source: Customer['billingAddress']) => {
      const filled = { ...blank.billing };
      for (const key of Object.keys(filled) as (keyof AddressForm)[]) filled[key] = source?.[key] ?? filled[key];
      return filled;
    };
    const billing = addressOf(customer.billingAddress);
    billing.title = billing.title || customer.title || '';
    billing.firstName = billing.firstName || customer.firstName;
    billing.middleName = billing.middleName || customer.middleName || '';
    billing.lastName = billing.lastName || customer.lastName;
    const [year = '', month = '', day = ''] = (customer.dateOfBirth ?? '').split('-');
    requestFocus(() => customerRef.current);
    update({
      customerId: customer.customerId,
      customerLabel: `${customer.firstName} ${customer.lastName} (${customer.reference})`,
      emailAddress: customer.emailAddress ?? '',
      dateOfBirth: customer.dateOfBirth ? { day: String(Number(day)), month: String(Number(month)), year } : { day: '', month: '', year: '' },
      billing,
      shipToDifferentAddress: customer.shippingAddress !== null,
      shipping: customer.shippingAddress ? addressOf(customer.shippingAddress) : blank.shipping,
    });
    setCustomerSearch('');
  };

  const deleteSavedCard = async (card: SavedCard) => {
    if (!form.customerId) return;
    await gatewayApi.delete(`${base}/customers/${e(form.customerId)}/saved-cards/${e(card.savedCardId)}`);
    await queryClient.invalidateQueries({ queryKey: ['virtualTerminal', base, 'savedCards'] });
    if (form.savedCardId === card.savedCardId) update({ savedCardId: '' });
    showToast({ kind: 'success', message: `Saved card ${card.maskedCardNumber} deleted.` });
  };

  const retrying = declinedOrder !== null && !form.sendPaymentLink && orderKeyOf(form) === declinedOrder.orderKey;
  /** Charges the form (sameCard: the declined order's card again, whatever the card fields hold). */
  const submit = async (confirmDuplicate = false, sameCard = false) => {
    setTouched(true);
    const blocking = sameCard ? [] : Object.keys(problems);
    if (blocking.length > 0 || sending || (sameCard && !declinedOrder)) {
      if (blocking.length > 0) setProblemFocusWanted((count) => count + 1);
      return;
    }
    setSending(true);
    setServerErrors([]);
    try {
      // After a decline, the same order is tried again on its payment job: never a new job for the same order.
      const answer =
        declinedOrder && (sameCard || retrying)
          ? await gatewayApi.post<OrderResult>(
              `${base}/orders/${e(declinedOrder.paymentJobReference)}/attempts`,
              sameCard ? { sameCard: true } : attemptBody(form),
              { headers: { 'Idempotency-Key': idempotencyKey.current }, handleErrors: false },
            )
          : await gatewayApi.post<OrderResult>(`${base}/orders`, orderBody(form, confirmDuplicate), {
              headers: { 'Idempotency-Key': idempotencyKey.current },
              handleErrors: false,
            });
      setDeclinedOrder(answer.result === 'declined' ? { paymentJobReference: answer.paymentJobReference, orderKey: orderKeyOf(form) } : null);
      setResult(answer);
      setDuplicate(null);
      idempotencyKey.current = newKey();
      void queryClient.invalidateQueries({ queryKey: ['paymentJobs'] });
      if (answer.savedCardId) void queryClient.invalidateQueries({ queryKey: ['virtualTerminal', base, 'savedCards'] });
      // A charged card leaves the form at once (number, expiry and code), and the emptied fields show no error.
      if (answer.result === 'paid') {
        // A customer this order stored is the order's customer from now on: 'New order, same customer' keeps them.
        const stored =
          answer.customerCreated && answer.customerId
            ? {
                customerId: answer.customerId,
                customerLabel: `${[form.billing.firstName, form.billing.lastName].join(' ').trim() || form.billing.organisation} (stored with this order)`,
              }
            : {};
        update({ card: { ...form.card, cardNumber: '', expiry: '', cvc: '' }, saveCard: false, ...stored });
        setTouched(false);
      }
      requestFocus(() => resultRef.current);
    } catch (error) {
      idempotencyKey.current = newKey();
      if (isApiError(error) && error.status === 409) {
        setDuplicate({ message: error.messages[0] ?? 'This merchant reference was used within 24 hours.' });
      } else {
        setServerErrors(isApiError(error) && error.messages.length > 0 ? [...error.messages] : ['Whoops! Something went wrong.']);
      }
    } finally {
      setSending(false);
    }
  };

  const newOrder = (keepCustomer: boolean) => {
    // The card this order saved or used is the one 'Saved card' offers first for the same customer.
    setForm(nextOrder(form, settings, keepCustomer, result?.result === 'paid' ? result.savedCardId : null));
    setResult(null);
    setDeclinedOrder(null);
    setTouched(false);
    setServerErrors([]);
    requestFocus(() => referenceRef.current);
  };
  /** 'Try another card': the card fields emptied (a typed card, not a saved one) and the card number to type in. */
  const tryAnotherCard = () => {
    update({
      card: { ...form.card, cardNumber: '', expiry: '', cvc: '' },
      saveCard: false,
      ...(form.paymentSource === 'savedCard' ? {} : { paymentSource: 'newCard' as const }),
    });
    setTouched(false);
    requestFocus(() => (form.paymentSource === 'savedCard' ? formRef.current?.querySelector<HTMLElement>('.vt-card select') : cardNumberRef.current) ?? null);
  };
  const jobPath = result ? `/configurations/${e(configurationId)}/payments/${e(result.paymentJobReference)}` : '';
  const openJobBeside = () => {
    if (result) openBeside(jobPath, scope ? { afterPaneId: scope.paneId } : {});
  };

  // newOrder: the customer is kept unless the command asks for a new one (argument 1: 'New order (new customer)').
  const handlers: PaneRequestHandlers = { newItem: addLine, submitOrder: () => void submit(), newOrder: (argument) => newOrder(argument !== newCustomerOrder) };
  if (form.lines.length > 1) handlers.removeOrderLine = () => removeLine();
  if (result) handlers.openOrderResult = openJobBeside;
  if (result?.result === 'declined' && declinedOrder && !sending)
    handlers.retryDeclined = (argument) => (argument === anotherCardAttempt ? tryAnotherCard() : void submit(false, true));
  usePaneCapabilities(handlers);

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
      return;
    }
    // Enter in a field never submits by accident (buttons keep their own Enter).
    if (event.key === 'Enter' && event.target instanceof HTMLInputElement) event.preventDefault();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };
  const brand = cardBrand(cardDigits(form.card.cardNumber));
  const countryOptions = Array.isArray(countries.data) ? countries.data : [];

  const address = (which: 'billing' | 'shipping', legend: string) => {
    const value = form[which];
    const set = (field: keyof AddressForm) => (event: { target: { value: string } }) => setAddress(which, field, event.target.value);
    const text = (field: keyof AddressForm, label: string, autoComplete?: string) => (
      <Field label={label} error={shown(`${which}.${field}`)}>
        {(props) => (
          <input
            {...props}
            type="text"
            value={value[field]}
            onChange={set(field)}
            autoComplete={autoComplete ? `${which === 'shipping' ? 'shipping' : 'billing'} ${autoComplete}` : 'off'}
            maxLength={200}
          />
        )}
      </Field>
    );
    return (
      <fieldset className="vt-section vt-address">
        <legend>{legend}</legend>
        <Field label="Title">
          {(props) => (
            <select {...props} value={value.title} onChange={set('title')}>
              <option value="">—</option>
              {salutations.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          )}
        </Field>
        {text('firstName', 'First name', 'given-name')}
        {text('middleName', 'Middle name', 'additional-name')}
        {text('lastName', 'Last name', 'family-name')}
        {text('organisation', 'Organisation', 'organization')}
        {text('department', 'Department')}
        {text('addressLine1', 'Address line 1', 'address-line1')}
        {text('addressLine2', 'Address line 2', 'address-line2')}
        {text('zipCode', 'Postcode', 'postal-code')}
        {text('city', 'City', 'address-level2')}
        {text('stateProvince', 'County, state or province', 'address-level1')}
        <Field label="Country" error={shown(`${which}.countryIso3166Alpha2`)}>
          {(props) => (
            <select {...props} value={value.countryIso3166Alpha2} onChange={set('countryIso3166Alpha2')}>
              <option value="">Choose a country</option>
              {countryOptions.map((country) => (
                <option key={country.code} value={country.code}>
                  {country.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        {(['1', '2'] as const).map((n) => (
          <div key={n} className="vt-phone">
            {text(`phoneNumber${n}`, `Phone ${n}`, n === '1' ? 'tel' : undefined)}
            <Field label={`Phone ${n} type`}>
              {(props) => (
                <select {...props} value={value[`phoneNumber${n}Type`]} onChange={set(`phoneNumber${n}Type`)}>
                  {phoneNumberTypes.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
        ))}
      </fieldset>
    );
  };

  const savedCardList = savedCards.data?.results ?? [];
  const atLimit = savedCards.data ? savedCardList.length >= savedCards.data.savedCardLimit : false;

  return (
    <div className="vt-pane">
      <header className="vt-header">
        <h1>Virtual terminal</h1>
        <p className="vt-hint">
          Card payments by phone or mail order. Tab moves through the form, Ctrl+Enter charges, Shift+N (outside a field) adds an order line, Alt+N starts a new
          order for the same customer.
        </p>
      </header>
      {result ? (
        <section ref={resultRef} tabIndex={-1} className={`vt-result vt-result-${result.result}`} aria-labelledby="vt-result-title" role="status">
          <h2 id="vt-result-title">
            {result.result === 'paid'
              ? `Paid: ${formatMoney(toMinor(result.amount, result.currency), result.currency)}`
              : result.result === 'linkSent'
                ? 'Payment link sent'
                : 'Declined'}
            {result.attempt ? ` (attempt ${result.attempt})` : ''}
          </h2>
          <p>
            {result.result === 'paid'
              ? `Card ${result.maskedCardNumber ?? ''} was charged.`
              : result.result === 'linkSent'
                ? `${result.message} It can be used once, until ${(result.expirationDateTimeUtc ?? '').slice(0, 16).replace('T', ' ')} UTC.`
                : `Reason: ${result.declineReason ?? 'unknown'}. Check the card with the customer, then try it again or try another card: either is another attempt on this order, not a new one.`}
          </p>
          {result.confirmationEmailQueued ? <p>An order confirmation email is on its way to the customer.</p> : null}
          {result.savedCardId && result.result === 'paid' ? (
            <p>{result.customerCreated ? 'The customer is stored, with this card saved for their next orders.' : 'The card is saved for this customer.'}</p>
          ) : null}
          <p>
            Payment job <Link href={jobPath}>{result.paymentJobReference}</Link>
            {result.transactionReference ? ` · transaction ${result.transactionReference}` : ''}{' '}
            <button type="button" className="button" onClick={openJobBeside}>
              Open payment job beside
            </button>
          </p>
          {result.result === 'declined' && declinedOrder ? (
            <div className="vt-actions">
              <button type="button" className="button button-primary" disabled={sending} onClick={() => void submit(false, true)}>
                Try again
              </button>
              <button type="button" className="button" disabled={sending} onClick={tryAnotherCard}>
                Try another card
              </button>
            </div>
          ) : null}
          <div className="vt-actions">
            <button type="button" className={result.result === 'declined' ? 'button' : 'button button-primary'} onClick={() => newOrder(true)}>
              New order, same customer
            </button>
            <button type="button" className="button" onClick={() => newOrder(false)}>
              New order, new customer
            </button>
          </div>
        </section>
      ) : null}
      {duplicate ? (
        <section className="vt-duplicate" role="alertdialog" aria-labelledby="vt-duplicate-title" aria-describedby="vt-duplicate-text">
          <h2 id="vt-duplicate-title">Charge this reference again?</h2>
          <p id="vt-duplicate-text">{duplicate.message}</p>
          <div className="vt-actions">
            <button
              type="button"
              className="button"
              // biome-ignore lint/a11y/noAutofocus: the duplicate question takes the keyboard to its safe answer
              autoFocus
              onClick={() => {
                setDuplicate(null);
                referenceRef.current?.focus();
              }}
            >
              Change the reference
            </button>
            <button type="button" className="button button-danger" onClick={() => void submit(true)}>
              Charge again
            </button>
          </div>
        </section>
      ) : null}
      {serverErrors.length > 0 ? (
        <div className="vt-errors" role="alert">
          <ul>
            {serverErrors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <form ref={formRef} className="vt-form" aria-label="New order" noValidate onSubmit={onSubmit} onKeyDown={onKeyDown}>
        <fieldset className="vt-section">
          <legend>Order</legend>
          <Field label="Merchant reference" error={shown('merchantReference')} hint="At most 80 characters; unique within 24 hours.">
            {(props) => (
              <input
                {...props}
                ref={referenceRef}
                type="text"
                value={form.merchantReference}
                maxLength={80}
                // biome-ignore lint/a11y/noAutofocus: the terminal opens with the keyboard in its first field (decision 0132, focus on load)
                autoFocus
                onChange={(event) => update({ merchantReference: event.target.value })}
                autoComplete="off"
              />
            )}
          </Field>
          <Field label="Currency" error={shown('currency')}>
            {(props) => (
              <select {...props} value={form.currency} onChange={(event) => update({ currency: event.target.value })}>
                {settings.currencies.map((code) => (
                  <option key={code} value={code}>
                    {code}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </fieldset>

        <fieldset className="vt-section">
          <legend>Customer</legend>
          {form.customerId ? (
            <p className="vt-customer" tabIndex={-1} ref={customerRef}>
              Stored customer: <strong>{form.customerLabel}</strong>{' '}
              <button
                type="button"
                className="button button-ghost"
                onClick={() => {
                  update({ customerId: null, customerLabel: '', paymentSource: 'newCard', savedCardId: '', saveCard: false });
                  requestFocus(() => customerSearchRef.current);
                }}
              >
                Clear customer
              </button>
            </p>
          ) : (
            <Field label="Find a stored customer" hint="Reference, name or email (at least 2 characters).">
              {(props) => (
                <input
                  {...props}
                  ref={customerSearchRef}
                  type="search"
                  value={customerSearch}
                  onChange={(event) => setCustomerSearch(event.target.value)}
                  autoComplete="off"
                />
              )}
            </Field>
          )}
          {!form.customerId && customerSearch.trim().length >= 2 ? (
            <ul className="vt-customer-results" aria-label="Matching customers">
              {(customers.data?.results ?? []).map((item) => (
                <li key={item.customerId}>
                  <button type="button" className="button button-ghost" onClick={() => void pickCustomer(item)}>
                    {item.firstName} {item.lastName} · {item.reference}
                    {item.emailAddress ? ` · ${item.emailAddress}` : ''}
                  </button>
                </li>
              ))}
              {customers.data && customers.data.results.length === 0 ? <li>No stored customer matches.</li> : null}
              {customers.isError ? <li>Customers could not be searched.</li> : null}
            </ul>
          ) : null}
          <Field
            label="Email address"
            error={shown('emailAddress')}
            hint={settings.orderConfirmationEmails ? 'Required: the order confirmation is emailed.' : undefined}
          >
            {(props) => (
              <input
                {...props}
                type="email"
                value={form.emailAddress}
                maxLength={254}
                onChange={(event) => update({ emailAddress: event.target.value })}
                autoComplete="off"
              />
            )}
          </Field>
          <div className="vt-date" role="group" aria-label="Date of birth">
            {(['day', 'month', 'year'] as const).map((part) => (
              <Field key={part} label={`Date of birth ${part}`} error={shown(`dateOfBirth.${part}`)}>
                {(props) => (
                  <input
                    {...props}
                    type="text"
                    inputMode="numeric"
                    value={form.dateOfBirth[part]}
                    maxLength={part === 'year' ? 4 : 2}
                    placeholder={part === 'year' ? 'YYYY' : part === 'month' ? 'MM' : 'DD'}
                    onChange={(event) => update({ dateOfBirth: { ...form.dateOfBirth, [part]: event.target.value.replace(/\D/g, '') } })}
                  />
                )}
              </Field>
            ))}
            {shown('dateOfBirth.date') ? <span className="vt-error">{shown('dateOfBirth.date')}</span> : null}
          </div>
        </fieldset>

        {address('billing', 'Billing address')}
        {settings.askShippingAddress ? (
          <div className="vt-section">
            <label className="vt-check">
              <input type="checkbox" checked={form.shipToDifferentAddress} onChange={(event) => update({ shipToDifferentAddress: event.target.checked })} />{' '}
              Ship to a different address
            </label>
          </div>
        ) : null}
        {settings.askShippingAddress && form.shipToDifferentAddress ? address('shipping', 'Shipping address') : null}

        <fieldset className="vt-section vt-lines">
          <legend>Order lines</legend>
          {form.lines.map((line, index) => {
            const amounts = lineTotals[index]?.amounts ?? null;
            const n = index + 1;
            return (
              <div key={line.key} className="vt-line" role="group" aria-label={`Line ${n}`}>
                <Field label={`Line ${n} type`}>
                  {(props) => (
                    <select {...props} value={line.type} onChange={(event) => setLine(index, { type: event.target.value })}>
                      {(Array.isArray(lineTypes.data) ? lineTypes.data : orderLineTypes.map((value) => ({ value, name: lineTypeLabel[value] ?? value }))).map(
                        (option) => (
                          <option key={option.value} value={option.value}>
                            {option.name}
                          </option>
                        ),
                      )}
                    </select>
                  )}
                </Field>
                <Field label={`Line ${n} description`} error={shown(`lines.${index}.description`)}>
                  {(props) => (
                    <input
                      {...props}
                      type="text"
                      value={line.description}
                      maxLength={200}
                      onChange={(event) => setLine(index, { description: event.target.value })}
                    />
                  )}
                </Field>
                <Field label={`Line ${n} quantity`} error={shown(`lines.${index}.quantity`)}>
                  {(props) => (
                    <input
                      {...props}
                      type="number"
                      min={1}
                      max={9999}
                      step={1}
                      inputMode="numeric"
                      value={line.quantity}
                      onPaste={(event) => {
                        if (!/^\d+$/.test(event.clipboardData.getData('text').trim())) event.preventDefault();
                      }}
                      onKeyDown={(event) => {
                        if (['e', 'E', '+', '-', '.', ','].includes(event.key)) event.preventDefault();
                      }}
                      onChange={(event) => setLine(index, { quantity: clampQuantity(event.target.value) })}
                    />
                  )}
                </Field>
                <Field label={`Line ${n} unit price`} error={shown(`lines.${index}.unitPrice`)}>
                  {(props) => (
                    <input
                      {...props}
                      type="text"
                      inputMode="decimal"
                      value={line.unitPrice}
                      onChange={(event) => setLine(index, { unitPrice: event.target.value.replace(',', '.') })}
                      autoComplete="off"
                    />
                  )}
                </Field>
                <Field label={`Line ${n} price is`}>
                  {(props) => (
                    <select
                      {...props}
                      value={line.priceIncludesVat ? 'incl' : 'excl'}
                      onChange={(event) => setLine(index, { priceIncludesVat: event.target.value === 'incl' })}
                    >
                      <option value="incl">Including VAT</option>
                      <option value="excl">Excluding VAT</option>
                    </select>
                  )}
                </Field>
                <Field label={`Line ${n} VAT %`} error={shown(`lines.${index}.vatPercentage`)}>
                  {(props) => (
                    <input
                      {...props}
                      type="text"
                      inputMode="decimal"
                      value={line.vatPercentage}
                      onChange={(event) => setLine(index, { vatPercentage: event.target.value.replace(',', '.') })}
                    />
                  )}
                </Field>
                <output className="vt-line-total" aria-label={`Line ${n} total`}>
                  {amounts ? (
                    <>
                      {money(amounts.totalInclMinor)}
                      <small>
                        {' '}
                        (excl. {money(amounts.totalExclMinor)}, VAT {money(amounts.totalVatMinor)})
                      </small>
                    </>
                  ) : (
                    '—'
                  )}
                </output>
                {form.lines.length > 1 ? (
                  <button type="button" className="button button-ghost" onClick={() => removeLine(index)} aria-label={`Remove line ${n}`}>
                    Remove
                  </button>
                ) : null}
              </div>
            );
          })}
          <button type="button" className="button" onClick={addLine}>
            Add order line
          </button>
          {touched && problems.lines ? (
            <p className="vt-error" role="alert">
              {problems.lines}
            </p>
          ) : null}
          <dl className="vt-totals" aria-label="Order totals">
            <div>
              <dt>Total excl. VAT</dt>
              <dd>{money(totals.exclMinor)}</dd>
            </div>
            <div>
              <dt>VAT</dt>
              <dd>{money(totals.vatMinor)}</dd>
            </div>
            <div className="vt-total">
              <dt>Order total</dt>
              <dd>{money(totals.inclMinor)}</dd>
            </div>
          </dl>
        </fieldset>

        <fieldset className="vt-section vt-card">
          <legend>Payment</legend>
          <label className="vt-check">
            <input type="checkbox" checked={form.sendPaymentLink} onChange={(event) => update({ sendPaymentLink: event.target.checked })} /> Send a payment link
            instead (the customer pays on the payment page)
          </label>
          {form.sendPaymentLink ? (
            <Field label="Link valid for (hours)" error={shown('linkValidityHours')} hint="24 hours by default, at most 720 (30 days); the link works once.">
              {(props) => (
                <input
                  {...props}
                  type="text"
                  inputMode="numeric"
                  value={form.linkValidityHours}
                  maxLength={3}
                  onChange={(event) => update({ linkValidityHours: event.target.value.replace(/\D/g, '') })}
                />
              )}
            </Field>
          ) : null}
          {form.sendPaymentLink ? null : form.customerId && savedCardList.length > 0 ? (
            <div className="vt-source" role="radiogroup" aria-label="Pay with">
              <label className="vt-check">
                <input type="radio" name="vt-source" checked={form.paymentSource === 'newCard'} onChange={() => update({ paymentSource: 'newCard' })} /> New
                card
              </label>
              <label className="vt-check">
                <input
                  type="radio"
                  name="vt-source"
                  checked={form.paymentSource === 'savedCard'}
                  onChange={() => update({ paymentSource: 'savedCard', savedCardId: form.savedCardId || savedCardList[0]?.savedCardId || '' })}
                />{' '}
                Saved card
              </label>
            </div>
          ) : null}
          {form.sendPaymentLink ? null : form.paymentSource === 'savedCard' && form.customerId ? (
            <>
              <Field label="Saved card" error={shown('savedCardId')}>
                {(props) => (
                  <select {...props} value={form.savedCardId} onChange={(event) => update({ savedCardId: event.target.value })}>
                    <option value="">Choose a saved card</option>
                    {savedCardList.map((card) => (
                      <option key={card.savedCardId} value={card.savedCardId}>
                        {card.maskedCardNumber} · {String(card.expiryMonth).padStart(2, '0')}/{String(card.expiryYear).slice(-2)}
                        {card.cardholderName ? ` · ${card.cardholderName}` : ''}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <ul className="vt-saved-cards" aria-label="Saved cards">
                {savedCardList.map((card) => (
                  <li key={card.savedCardId}>
                    {card.maskedCardNumber}{' '}
                    <button
                      type="button"
                      className="button button-ghost"
                      onClick={() => void deleteSavedCard(card)}
                      aria-label={`Delete saved card ${card.maskedCardNumber}`}
                    >
                      Delete
                    </button>
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <>
              <Field label="Card number" error={shown('card.cardNumber')} hint={brand ?? undefined}>
                {(props) => (
                  <input
                    {...props}
                    ref={cardNumberRef}
                    type="text"
                    inputMode="numeric"
                    autoComplete="off"
                    value={form.card.cardNumber}
                    maxLength={23}
                    onChange={(event) => update({ card: { ...form.card, cardNumber: formatCardNumber(event.target.value) } })}
                  />
                )}
              </Field>
              <Field label="Expiry (MM/YY)" error={shown('card.expiry')}>
                {(props) => (
                  <input
                    {...props}
                    type="text"
                    inputMode="numeric"
                    autoComplete="off"
                    placeholder="MM/YY"
                    value={form.card.expiry}
                    maxLength={5}
                    onChange={(event) => {
                      const digits = event.target.value.replace(/\D/g, '').slice(0, 4);
                      update({ card: { ...form.card, expiry: digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits } });
                    }}
                  />
                )}
              </Field>
              <Field label="CVC" error={shown('card.cvc')}>
                {(props) => (
                  <input
                    {...props}
                    type="password"
                    inputMode="numeric"
                    autoComplete="off"
                    value={form.card.cvc}
                    maxLength={4}
                    onChange={(event) => update({ card: { ...form.card, cvc: event.target.value.replace(/\D/g, '') } })}
                  />
                )}
              </Field>
              <Field label="Name on card" error={shown('card.cardholderName')}>
                {(props) => (
                  <input
                    {...props}
                    type="text"
                    autoComplete="off"
                    value={form.card.cardholderName}
                    maxLength={100}
                    onChange={(event) => update({ card: { ...form.card, cardholderName: event.target.value } })}
                  />
                )}
              </Field>
              {/* another attempt at a declined order only charges: the card is saved with an order of its own */}
              {settings.savedCardsAllowed && !retrying ? (
                <label className="vt-check">
                  <input type="checkbox" checked={form.saveCard} onChange={(event) => update({ saveCard: event.target.checked })} />
                  {form.customerId ? ' Save card for this customer' : ' Save the customer and this card for later orders'}
                  {form.customerId && atLimit ? <span className="vt-hint"> (the saved card limit is reached: delete an older card first)</span> : null}
                </label>
              ) : null}
            </>
          )}
        </fieldset>

        <div className="vt-submit">
          <button type="submit" className="button button-primary" disabled={sending}>
            {sending
              ? 'Sending…'
              : form.sendPaymentLink
                ? `Send payment link for ${money(totals.inclMinor)}`
                : retrying
                  ? `Try this card for ${money(totals.inclMinor)}`
                  : `Charge ${money(totals.inclMinor)}`}
          </button>
          <span className="vt-hint">Ctrl+Enter</span>
        </div>
      </form>
    </div>
  );
}
