// The virtual terminal's order form as data: its state, the messages each field shows (as typed), the request body
// it sends and the draft kept in session storage (never the card). Pure, so component tests and the pane share it.
import { orderLineTypes, phoneNumberTypes, salutations } from '../../src/contract/enumerations.ts';
import {
  amountTextProblem,
  cardDigits,
  dateInputProblems,
  defaultPaymentLinkValidityHours,
  maxPaymentLinkValidityHours,
  emailRequiredMessage,
  expiryProblem,
  isoDateOf,
  lineAmounts,
  luhnValid,
  maxMerchantReferenceLength,
  maxQuantity,
  orderTotals,
  type LineInput,
  type VirtualTerminalSettings,
} from '../../src/contract/virtual-terminal.ts';

export type AddressForm = {
  title: string;
  firstName: string;
  middleName: string;
  lastName: string;
  organisation: string;
  department: string;
  addressLine1: string;
  addressLine2: string;
  zipCode: string;
  city: string;
  stateProvince: string;
  countryIso3166Alpha2: string;
  phoneNumber1: string;
  phoneNumber1Type: string;
  phoneNumber2: string;
  phoneNumber2Type: string;
};
export type LineForm = {
  key: number;
  type: string;
  description: string;
  quantity: string;
  unitPrice: string;
  priceIncludesVat: boolean;
  vatPercentage: string;
};
export type CardForm = { cardNumber: string; expiry: string; cvc: string; cardholderName: string };
export type OrderForm = {
  merchantReference: string;
  currency: string;
  customerId: string | null;
  customerLabel: string;
  emailAddress: string;
  dateOfBirth: { day: string; month: string; year: string };
  billing: AddressForm;
  shipToDifferentAddress: boolean;
  shipping: AddressForm;
  lines: LineForm[];
  paymentSource: 'newCard' | 'savedCard';
  card: CardForm;
  savedCardId: string;
  saveCard: boolean;
  /** 'Send a payment link instead' (for agents who must not hear card numbers) and the link's validity */
  sendPaymentLink: boolean;
  linkValidityHours: string;
};

export { orderLineTypes, phoneNumberTypes, salutations };

export const emptyAddress = (): AddressForm => ({
  title: '',
  firstName: '',
  middleName: '',
  lastName: '',
  organisation: '',
  department: '',
  addressLine1: '',
  addressLine2: '',
  zipCode: '',
  city: '',
  stateProvince: '',
  countryIso3166Alpha2: '',
  phoneNumber1: '',
  phoneNumber1Type: 'Unknown',
  phoneNumber2: '',
  phoneNumber2Type: 'Unknown',
});
let lineKey = 1;
export const emptyLine = (type: string): LineForm => ({
  key: lineKey++,
  type,
  description: '',
  quantity: '1',
  unitPrice: '',
  priceIncludesVat: true,
  vatPercentage: '20',
});
export const emptyCard = (): CardForm => ({ cardNumber: '', expiry: '', cvc: '', cardholderName: '' });

export function emptyOrder(settings: Pick<VirtualTerminalSettings, 'defaultCurrency' | 'currencies' | 'defaultOrderLineType'>): OrderForm {
  return {
    merchantReference: '',
    currency: settings.defaultCurrency ?? settings.currencies[0] ?? 'GBP',
    customerId: null,
    customerLabel: '',
    emailAddress: '',
    dateOfBirth: { day: '', month: '', year: '' },
    billing: emptyAddress(),
    shipToDifferentAddress: false,
    shipping: emptyAddress(),
    lines: [emptyLine(settings.defaultOrderLineType)],
    paymentSource: 'newCard',
    card: emptyCard(),
    savedCardId: '',
    saveCard: false,
    sendPaymentLink: false,
    linkValidityHours: String(defaultPaymentLinkValidityHours),
  };
}

/** 'New order' keeping the customer: identity, addresses and customer stay; the rest is new. */
export function nextOrder(
  form: OrderForm,
  settings: Pick<VirtualTerminalSettings, 'defaultCurrency' | 'currencies' | 'defaultOrderLineType'>,
  keepCustomer: boolean,
  lastCardId: string | null = null,
): OrderForm {
  const fresh = emptyOrder(settings);
  if (!keepCustomer) return fresh;
  return {
    ...fresh,
    currency: form.currency,
    customerId: form.customerId,
    customerLabel: form.customerLabel,
    emailAddress: form.emailAddress,
    dateOfBirth: form.dateOfBirth,
    billing: form.billing,
    shipToDifferentAddress: form.shipToDifferentAddress,
    shipping: form.shipping,
    savedCardId: lastCardId ?? '',
  };
}

const plausibleEmail = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;
const phonePattern = /^\+?[0-9 ()-]{4,30}$/;

/** The number a quantity field holds: digits only, clamped to 1…max (pasted text is refused by the input). */
export function clampQuantity(text: string): string {
  const digits = text.replace(/\D/g, '');
  if (digits === '') return '';
  return String(Math.min(Math.max(Number(digits), 1), maxQuantity));
}

export const lineInput = (line: LineForm): LineInput | null => {
  const quantity = Number(line.quantity);
  const unitPrice = Number(line.unitPrice);
  const vatPercentage = Number(line.vatPercentage || '0');
  if (!Number.isInteger(quantity) || quantity < 1 || !Number.isFinite(unitPrice) || line.unitPrice.trim() === '' || !Number.isFinite(vatPercentage))
    return null;
  return { type: line.type, quantity, unitPrice, priceIncludesVat: line.priceIncludesVat, vatPercentage };
};

export function liveTotals(form: OrderForm) {
  const lines = form.lines.map((line) => ({ line, input: lineInput(line) }));
  return {
    lines: lines.map(({ line, input }) => ({
      key: line.key,
      amounts: input && !amountTextProblem(line.unitPrice, form.currency) ? lineAmounts(input, form.currency) : null,
    })),
    totals: orderTotals(
      lines.flatMap(({ input, line }) => (input && !amountTextProblem(line.unitPrice, form.currency) ? [input] : [])),
      form.currency,
    ),
  };
}

export type Problems = Record<string, string>;

function addressProblems(prefix: string, address: AddressForm, problems: Problems, required: boolean): void {
  if (required && !address.lastName.trim() && !address.organisation.trim()) problems[`${prefix}.lastName`] = 'Last name or organisation is required';
  if (required && !address.countryIso3166Alpha2) problems[`${prefix}.countryIso3166Alpha2`] = 'Country is required';
  for (const field of ['phoneNumber1', 'phoneNumber2'] as const) {
    if (address[field].trim() && !phonePattern.test(address[field].trim()))
      problems[`${prefix}.${field}`] = 'Enter a phone number: digits, spaces, ( ) - and a leading +';
  }
}

/** Every field's message, keyed by the field's name; empty when the order may be sent. */
export function orderProblems(form: OrderForm, settings: Pick<VirtualTerminalSettings, 'orderConfirmationEmails' | 'currencies'>, now: Date): Problems {
  const problems: Problems = {};
  const reference = form.merchantReference.trim();
  if (!reference) problems.merchantReference = 'Merchant reference is required';
  else if (reference.length > maxMerchantReferenceLength)
    problems.merchantReference = `Merchant reference may have ${maxMerchantReferenceLength} characters maximum`;
  if (!settings.currencies.includes(form.currency)) problems.currency = 'Choose a currency this configuration offers';
  const email = form.emailAddress.trim();
  if (email && !plausibleEmail.test(email)) problems.emailAddress = 'Enter a valid email address';
  else if (!email && settings.orderConfirmationEmails) problems.emailAddress = emailRequiredMessage;
  const dob = form.dateOfBirth;
  if (dob.day || dob.month || dob.year) {
    const parts = dateInputProblems(dob);
    for (const [part, message] of Object.entries(parts)) problems[`dateOfBirth.${part}`] = message;
    const iso = isoDateOf(dob);
    if (iso && iso > now.toISOString().slice(0, 10)) problems['dateOfBirth.date'] = 'Date of birth cannot be in the future';
  }
  addressProblems('billing', form.billing, problems, true);
  if (form.shipToDifferentAddress) addressProblems('shipping', form.shipping, problems, true);
  form.lines.forEach((line, index) => {
    if (!line.description.trim()) problems[`lines.${index}.description`] = 'Description is required';
    if (!line.quantity) problems[`lines.${index}.quantity`] = 'Quantity is required';
    const price = amountTextProblem(line.unitPrice, form.currency);
    if (price) problems[`lines.${index}.unitPrice`] = price;
    const vat = Number(line.vatPercentage || '0');
    if (!/^\d{1,3}(\.\d{1,2})?$/.test(line.vatPercentage || '0') || vat > 100)
      problems[`lines.${index}.vatPercentage`] = 'VAT rate is a percentage from 0 to 100';
  });
  if (form.lines.length === 0) problems.lines = 'Add at least one order line';
  else if (Object.keys(problems).every((key) => !key.startsWith('lines.')) && liveTotals(form).totals.inclMinor <= 0)
    problems.lines = 'The order total must be more than zero';
  if (form.sendPaymentLink) {
    if (!email) problems.emailAddress = "A payment link is emailed: enter the customer's email address";
    const hours = Number(form.linkValidityHours);
    if (!/^\d{1,3}$/.test(form.linkValidityHours) || hours < 1 || hours > maxPaymentLinkValidityHours)
      problems.linkValidityHours = `The link is valid 1 to ${maxPaymentLinkValidityHours} hours (30 days)`;
  } else if (form.paymentSource === 'newCard') {
    const digits = cardDigits(form.card.cardNumber);
    if (!digits) problems['card.cardNumber'] = 'Card number is required';
    else if (!/^[0-9]{12,19}$/.test(digits) || !luhnValid(digits)) problems['card.cardNumber'] = 'Card number is invalid';
    const expiry = expiryProblem(form.card.expiry, now);
    if (expiry) problems['card.expiry'] = expiry;
    if (!/^[0-9]{3,4}$/.test(form.card.cvc)) problems['card.cvc'] = 'CVC is 3 or 4 digits';
    if (!form.card.cardholderName.trim()) problems['card.cardholderName'] = 'Name on card is required';
  } else if (!form.savedCardId) problems.savedCardId = 'Choose a saved card';
  return problems;
}

const addressBody = (address: AddressForm) => {
  const body: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(address)) {
    const trimmed = value.trim();
    if (key.endsWith('Type')) continue;
    body[key] = trimmed === '' ? null : trimmed;
  }
  body.phoneNumber1Type = address.phoneNumber1.trim() ? address.phoneNumber1Type : null;
  body.phoneNumber2Type = address.phoneNumber2.trim() ? address.phoneNumber2Type : null;
  return body;
};

export function orderBody(form: OrderForm, confirmDuplicate: boolean) {
  return {
    merchantReference: form.merchantReference.trim(),
    currency: form.currency,
    confirmDuplicate,
    customerId: form.customerId,
    billingIdentity: { emailAddress: form.emailAddress.trim() || null, dateOfBirth: isoDateOf(form.dateOfBirth) },
    billingAddress: addressBody(form.billing),
    shippingAddress: form.shipToDifferentAddress ? addressBody(form.shipping) : null,
    orderLines: form.lines.map((line) => ({
      type: line.type,
      description: line.description.trim(),
      quantity: Number(line.quantity),
      unitPrice: Number(line.unitPrice),
      priceIncludesVat: line.priceIncludesVat,
      vatPercentage: Number(line.vatPercentage || '0'),
    })),
    paymentLink: form.sendPaymentLink ? { validityHours: Number(form.linkValidityHours) } : null,
    card: form.sendPaymentLink
      ? null
      : form.paymentSource === 'newCard'
        ? { ...form.card, cardNumber: cardDigits(form.card.cardNumber), cardholderName: form.card.cardholderName.trim() }
        : null,
    savedCardId: !form.sendPaymentLink && form.paymentSource === 'savedCard' ? form.savedCardId : null,
    // Without a chosen customer, saving the card stores the customer too (the server makes them from the order).
    saveCard: !form.sendPaymentLink && form.paymentSource === 'newCard' && form.saveCard,
  };
}

/**
 * The order apart from how it is paid: while it matches the declined order's, a charge is another attempt at that
 * order (the same payment job); a changed order (lines, addresses, reference) is a new order.
 */
export function orderKeyOf(form: OrderForm): string {
  const { card: _card, savedCardId: _saved, saveCard: _save, confirmDuplicate: _confirm, ...order } = orderBody(form, false);
  return JSON.stringify(order);
}

/** The body of another attempt with the card the form holds: a typed card or a saved one. */
export function attemptBody(form: OrderForm): { card: NonNullable<ReturnType<typeof orderBody>['card']> } | { savedCardId: string } {
  const body = orderBody(form, false);
  return body.card ? { card: body.card } : { savedCardId: body.savedCardId ?? '' };
}

/** The draft kept across a reload of the pane: everything but the card. */
export function draftOf(form: OrderForm): string {
  return JSON.stringify({ ...form, card: emptyCard(), lines: form.lines.map(({ key: _key, ...line }) => line) });
}
export function formFromDraft(text: string | null, fallback: OrderForm): OrderForm {
  if (!text) return fallback;
  try {
    const parsed = JSON.parse(text) as Partial<OrderForm>;
    if (!parsed || typeof parsed !== 'object' || !Array.isArray(parsed.lines)) return fallback;
    return {
      ...fallback,
      ...parsed,
      card: emptyCard(),
      lines: parsed.lines.map((line) => ({ ...emptyLine(fallback.lines[0]?.type ?? 'physicalItem'), ...line, key: lineKey++ })),
    };
  } catch {
    return fallback;
  }
}
export const isBlankOrder = (form: OrderForm, blank: OrderForm) => draftOf(form) === draftOf(blank);
