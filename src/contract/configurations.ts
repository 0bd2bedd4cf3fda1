// Businesses, merchants, configurations, payment-method settings, hosted payment pages, images and API keys
//: the list specs, field limits, value sets and the field checks the server and the forms share, worded
// with the spec's generic message templates. No arktype here (schemas: configuration-schemas.ts).
import { paymentMethods, type PaymentMethod } from './enumerations.ts';
import type { FilterDeclaration, ListQuerySpec } from './list-query.ts';

// ── the spec's generic validation messages (context document, section 5) ──
export const fieldMessages = {
  required: (label: string) => `${label} is required`,
  invalid: (label: string) => `${label} is invalid`,
  maxLength: (label: string, max: number) => `${label} may have ${max} characters maximum`,
  minLength: (label: string, min: number) => `${label} must have at least ${min} characters`,
  between: (label: string, min: number, max: number) => `${label} should be between ${min} and ${max}`,
  above: (label: string, min: number) => `${label} should be above ${min}`,
  inPast: (label: string) => `${label} is in the past`,
  atLeastOne: (label: string) => `Use at least one ${label}`,
} as const;

/** A form's problems by field name; empty when valid. */
export type FieldErrors = Record<string, string>;

export function checkText(errors: FieldErrors, field: string, label: string, value: string, limits: { max: number; required?: boolean }): void {
  if (limits.required && value.trim() === '') errors[field] = fieldMessages.required(label);
  else if (value.length > limits.max) errors[field] = fieldMessages.maxLength(label, limits.max);
}

export const maxUrlLength = 2048;
/** http(s) only: a javascript: or data: address would run in the shopper's or the user's browser. */
export function isWebAddress(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export function checkUrl(errors: FieldErrors, field: string, label: string, value: string | null, required = false): void {
  if (value === null || value === '') {
    if (required) errors[field] = fieldMessages.required(label);
    return;
  }
  if (value.length > maxUrlLength) errors[field] = fieldMessages.maxLength(label, maxUrlLength);
  else if (!isWebAddress(value)) errors[field] = fieldMessages.invalid(label);
}

// ── businesses and merchants ──
export const businessFilters = {
  name: { kind: 'string', operators: ['eq'] },
  id: { kind: { pattern: /^[A-Za-z0-9_-]{1,64}$/, description: 'a business id' }, operators: ['eq'] },
  live: { kind: 'boolean', operators: ['eq'] },
  automaticremittance: { kind: 'boolean', operators: ['eq'] },
} as const satisfies Record<string, FilterDeclaration>;

export const businessListSpec: ListQuerySpec = {
  filters: businessFilters,
  sortable: ['name', 'id'],
  defaultSort: [{ field: 'name', descending: false }],
};

export const merchantFilters = {
  name: { kind: 'string', operators: ['eq'] },
  id: { kind: { pattern: /^[A-Za-z0-9_-]{1,64}$/, description: 'a merchant id' }, operators: ['eq'] },
  live: { kind: 'boolean', operators: ['eq'] },
} as const satisfies Record<string, FilterDeclaration>;

export const merchantListSpec: ListQuerySpec = {
  filters: merchantFilters,
  sortable: ['name', 'id'],
  defaultSort: [{ field: 'name', descending: false }],
};

export const maxNameLength = 100;

export type BusinessEdit = { businessName: string; businessUrl: string | null };
export function checkBusinessEdit(edit: BusinessEdit): FieldErrors {
  const errors: FieldErrors = {};
  checkText(errors, 'businessName', 'Business name', edit.businessName, { max: maxNameLength, required: true });
  checkUrl(errors, 'businessUrl', 'Business URL', edit.businessUrl);
  return errors;
}

export type MerchantEdit = { merchantName: string; merchantUrl: string | null; supportUrl: string | null; supportEmail?: string | null };
/** Longest email address accepted (RFC 5321 in practice). */
export const maxEmailLength = 254;
const plausibleEmail = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;
export function checkMerchantEdit(edit: MerchantEdit): FieldErrors {
  const errors: FieldErrors = {};
  checkText(errors, 'merchantName', 'Merchant name', edit.merchantName, { max: maxNameLength, required: true });
  checkUrl(errors, 'merchantUrl', 'Merchant URL', edit.merchantUrl);
  checkUrl(errors, 'supportUrl', 'Support URL', edit.supportUrl);
  if (edit.supportEmail && (edit.supportEmail.length > maxEmailLength || !plausibleEmail.test(edit.supportEmail))) {
    errors.supportEmail = 'Support email must be an email address, like support@example.com';
  }
  return errors;
}

// ── configurations ──
export const configurationFilters = {
  tradename: { kind: 'string', operators: ['eq'] },
} as const satisfies Record<string, FilterDeclaration>;

export const configurationListSpec: ListQuerySpec = {
  filters: configurationFilters,
  sortable: ['tradeName', 'configurationId'],
  defaultSort: [{ field: 'tradeName', descending: false }],
};

export const maxTradeNameLength = 100;
export const maxDescriptionLength = 500;

/** The switches a configuration has; virtualTerminalMenuEnabled is the spec's, the others ours (README). */
export const configurationSwitchNames = ['virtualTerminalMenuEnabled', 'paymentLinksEnabled', 'orderConfirmationEmailsEnabled', 'savedCardsEnabled'] as const;
export type ConfigurationSwitchName = (typeof configurationSwitchNames)[number];
export const configurationSwitchLabels: Record<ConfigurationSwitchName, string> = {
  virtualTerminalMenuEnabled: 'Virtual terminal menu',
  paymentLinksEnabled: 'Payment links',
  orderConfirmationEmailsEnabled: 'Order confirmation emails',
  savedCardsEnabled: 'Saved cards',
};
export const defaultConfigurationSwitches: Record<ConfigurationSwitchName, boolean> = {
  virtualTerminalMenuEnabled: true,
  paymentLinksEnabled: true,
  orderConfirmationEmailsEnabled: false,
  savedCardsEnabled: false,
};

export type ConfigurationEdit = { tradeName: string; description: string };
export function checkConfigurationEdit(edit: ConfigurationEdit): FieldErrors {
  const errors: FieldErrors = {};
  checkText(errors, 'tradeName', 'Trade name', edit.tradeName, { max: maxTradeNameLength, required: true });
  checkText(errors, 'description', 'Description', edit.description, { max: maxDescriptionLength });
  return errors;
}

// ── payment-method settings: GET/PUT …/configurations/{id}/{paymentmethod}, the method's name lower-cased ──
export const paymentMethodPathNames: Record<string, PaymentMethod> = Object.fromEntries(paymentMethods.map((method) => [method.toLowerCase(), method]));
export const paymentMethodPathPattern = paymentMethods.map((method) => method.toLowerCase()).join('|');
export const threeDSecurePolicies = ['always', 'riskBased', 'never'] as const;
export type ThreeDSecurePolicy = (typeof threeDSecurePolicies)[number];
export const threeDSecurePolicyLabels: Record<ThreeDSecurePolicy, string> = { always: 'Always', riskBased: 'When the risk check asks', never: 'Never' };
/** Methods that carry a 3-D Secure policy (cards and the wallets that wrap a card). */
export const cardLikeMethods: readonly PaymentMethod[] = ['card', 'applePay', 'googlePay', 'samsungPay', 'clickToPay'];
export const maxDisplayNameLength = 50;
export const paymentMethodLabels: Record<PaymentMethod, string> = {
  afterPay: 'AfterPay',
  applePay: 'Apple Pay',
  bancontact: 'Bancontact',
  card: 'Card',
  directDebit: 'Direct debit',
  googlePay: 'Google Pay',
  ideal: 'iDEAL',
  klarnaPayLater: 'Klarna Pay Later',
  klarnaPayNow: 'Klarna Pay Now',
  klarnaSliceIt: 'Klarna Slice It',
  payPal: 'PayPal',
  samsungPay: 'Samsung Pay',
  sepaBanktransfer: 'SEPA bank transfer',
  clickToPay: 'Click to Pay',
  wallet: 'Wallet',
};
/** Limits are kept in thousandths of the major unit (the amount scale of the transactions overview). */
export const amountScaleFactor = 1000;
/** Highest limit a form accepts, in major units (kept far below the bigint range of thousandths). */
export const maxAmountLimit = 1_000_000_000;

export type PaymentMethodEdit = {
  enabled: boolean;
  displayName: string;
  threeDSecurePolicy: ThreeDSecurePolicy | null;
  minimumAmount: number | null;
  maximumAmount: number | null;
  currencies: string[];
};
export function checkPaymentMethodEdit(method: PaymentMethod, edit: PaymentMethodEdit): FieldErrors {
  const errors: FieldErrors = {};
  checkText(errors, 'displayName', 'Display name', edit.displayName, { max: maxDisplayNameLength, required: true });
  if (cardLikeMethods.includes(method) && edit.threeDSecurePolicy === null) errors.threeDSecurePolicy = fieldMessages.required('3-D Secure policy');
  if (!cardLikeMethods.includes(method) && edit.threeDSecurePolicy !== null) errors.threeDSecurePolicy = fieldMessages.invalid('3-D Secure policy');
  for (const [field, label, value] of [
    ['minimumAmount', 'Minimum amount', edit.minimumAmount],
    ['maximumAmount', 'Maximum amount', edit.maximumAmount],
  ] as const) {
    if (value === null) continue;
    if (!Number.isFinite(value) || value < 0 || value > maxAmountLimit || Math.round(value * 1000) !== value * 1000)
      errors[field] = fieldMessages.between(label, 0, maxAmountLimit);
  }
  if (!errors.minimumAmount && !errors.maximumAmount && edit.minimumAmount !== null && edit.maximumAmount !== null && edit.maximumAmount < edit.minimumAmount) {
    errors.maximumAmount = fieldMessages.above('Maximum amount', edit.minimumAmount);
  }
  if (edit.currencies.some((currency) => !/^[A-Z]{3}$/.test(currency))) errors.currencies = fieldMessages.invalid('Currencies');
  else if (edit.enabled && edit.currencies.length === 0) errors.currencies = fieldMessages.atLeastOne('currency');
  return errors;
}

// ── hosted payment pages ──
/** The hosted page editor's preview widths; a 'previewWidth' pane request carries the index of one. */
export const previewWidths = ['desktop', 'phone'] as const;
export type PreviewWidth = (typeof previewWidths)[number];
export const previewWidthLabels: Record<PreviewWidth, string> = { desktop: 'Desktop', phone: 'Phone' };

export const hostedPageFonts = ['System', 'Inter', 'Roboto', 'Open Sans', 'Lato', 'Source Serif', 'Georgia'] as const;
export type HostedPageFont = (typeof hostedPageFonts)[number];
/** CSS font stacks of the fixed list: all system or generic fallbacks, so the page needs no font download. */
export const hostedPageFontStacks: Record<HostedPageFont, string> = {
  System: 'system-ui, -apple-system, "Segoe UI", sans-serif',
  Inter: 'Inter, system-ui, sans-serif',
  Roboto: 'Roboto, system-ui, sans-serif',
  'Open Sans': '"Open Sans", system-ui, sans-serif',
  Lato: 'Lato, system-ui, sans-serif',
  'Source Serif': '"Source Serif Pro", Georgia, serif',
  Georgia: 'Georgia, "Times New Roman", serif',
};
export const hostedPageTextLimits = { title: 60, description: 200, payButtonLabel: 30, footer: 200 } as const;
export const hostedPageTextLabels = { title: 'Title', description: 'Description', payButtonLabel: 'Pay button label', footer: 'Footer' } as const;
export const maxHostedPageNameLength = 60;
export const hostedPageColourNames = ['brand', 'background', 'text', 'buttonBackground', 'buttonText'] as const;
export type HostedPageColourName = (typeof hostedPageColourNames)[number];
export const hostedPageColourLabels: Record<HostedPageColourName, string> = {
  brand: 'Brand colour',
  background: 'Background colour',
  text: 'Text colour',
  buttonBackground: 'Button colour',
  buttonText: 'Button text colour',
};

export type HostedPageDesign = {
  logoImageReference: string | null;
  colours: Record<HostedPageColourName, string>;
  font: HostedPageFont;
  texts: { title: string; description: string; payButtonLabel: string; footer: string };
  paymentMethodOrder: PaymentMethod[];
  showOrderLines: boolean;
  returnUrls: { success: string; cancel: string; failure: string };
};

export const defaultHostedPageDesign: HostedPageDesign = {
  logoImageReference: null,
  colours: { brand: '#1F3A93', background: '#FFFFFF', text: '#1B1B1F', buttonBackground: '#1F3A93', buttonText: '#FFFFFF' },
  font: 'System',
  texts: { title: 'Complete your payment', description: '', payButtonLabel: 'Pay now', footer: '' },
  paymentMethodOrder: ['card', 'ideal', 'payPal'],
  showOrderLines: true,
  returnUrls: { success: '', cancel: '', failure: '' },
};

const hexColour = /^#[0-9A-Fa-f]{6}$/;

/** WCAG 2.x relative luminance of an sRGB #RRGGBB colour. */
export function relativeLuminance(hex: string): number {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** Contrast ratio (1 to 21) of two #RRGGBB colours. */
export function contrastRatio(first: string, second: string): number {
  const [lighter, darker] = [relativeLuminance(first), relativeLuminance(second)].sort((a, b) => b - a) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/** WCAG AA for normal text: 4.5:1. */
export const minimumContrast = 4.5;

/** Pairs a shopper reads, with a warning when below AA (a warning, not a refusal: the brand decides). */
export function contrastWarnings(colours: Record<HostedPageColourName, string>): string[] {
  const pairs: [string, string, string][] = [
    ['Text on the background', colours.text, colours.background],
    ['Button text on the button', colours.buttonText, colours.buttonBackground],
  ];
  return pairs
    .filter(([, a, b]) => hexColour.test(a) && hexColour.test(b) && contrastRatio(a, b) < minimumContrast)
    .map(([label, a, b]) => `${label} has a contrast of ${contrastRatio(a, b).toFixed(2)}:1, below the ${minimumContrast}:1 that WCAG AA asks for`);
}

export function checkHostedPage(name: string, design: HostedPageDesign): FieldErrors {
  const errors: FieldErrors = {};
  checkText(errors, 'name', 'Name', name, { max: maxHostedPageNameLength, required: true });
  for (const colour of hostedPageColourNames)
    if (!hexColour.test(design.colours[colour])) errors[`colours.${colour}`] = fieldMessages.invalid(hostedPageColourLabels[colour]);
  if (!(hostedPageFonts as readonly string[]).includes(design.font)) errors.font = fieldMessages.invalid('Font');
  for (const text of ['title', 'description', 'payButtonLabel', 'footer'] as const) {
    checkText(errors, `texts.${text}`, hostedPageTextLabels[text], design.texts[text], {
      max: hostedPageTextLimits[text],
      required: text === 'title' || text === 'payButtonLabel',
    });
  }
  if (
    new Set(design.paymentMethodOrder).size !== design.paymentMethodOrder.length ||
    design.paymentMethodOrder.some((method) => !(paymentMethods as readonly string[]).includes(method))
  ) {
    errors.paymentMethodOrder = fieldMessages.invalid('Payment method order');
  }
  checkUrl(errors, 'returnUrls.success', 'Success return URL', design.returnUrls.success || null);
  checkUrl(errors, 'returnUrls.cancel', 'Cancel return URL', design.returnUrls.cancel || null);
  checkUrl(errors, 'returnUrls.failure', 'Failure return URL', design.returnUrls.failure || null);
  return errors;
}

// ── images (spec: image/jpeg and image/png, at most 5,242,880 bytes; resized to 800 × 600 at quality 0.6) ──
export const imageMimeTypes = ['image/jpeg', 'image/png'] as const;
export type ImageMimeType = (typeof imageMimeTypes)[number];
export const maxImageBytes = 5_242_880;
export const imageResize = { quality: 0.6, maxWidth: 800, maxHeight: 600 } as const;
/** The server refuses larger pictures outright (a decompression bomb has small bytes and huge dimensions). */
export const maxImageDimension = 8000;
export const imageMessages = {
  invalidType: `Invalid file type, allowed: ${['.jpg', '.jpeg', '.png'].join(', ')}`,
  tooLarge: (size: string) => `The file exceeded the maximum file size of ${size}`,
  chooseImage: 'Please choose an image file',
  invalidFormat: 'Invalid file format',
  uploadFailed: 'Whoops! something went wrong uploading the files.',
} as const;

// ── API keys ──
export const maxApiKeyNameLength = 60;
export const maxApiKeyDescriptionLength = 200;
export const oldKeyStopOptions = ['now', '1h', '24h', '7d'] as const;
export type OldKeyStop = (typeof oldKeyStopOptions)[number];
export const oldKeyStopMs: Record<OldKeyStop, number> = { now: 0, '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 };
export const oldKeyStopLabels: Record<OldKeyStop, string> = { now: 'Now', '1h': 'In 1 hour', '24h': 'In 24 hours', '7d': 'In 7 days' };
export const apiKeyPrefix = 'pk_live_';
/** Owners are warned this long before a key expires. */
export const apiKeyExpiryWarningMs = 7 * 86_400_000;

export type ApiKeyStatus = 'active' | 'expiring' | 'expired' | 'revoked';
export function apiKeyStatus(key: { expiresAt: string | null; revokedAt: string | null }, now: Date): ApiKeyStatus {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt === null) return 'active';
  const left = Date.parse(key.expiresAt) - now.getTime();
  if (left <= 0) return 'expired';
  return left <= apiKeyExpiryWarningMs ? 'expiring' : 'active';
}

export type ApiKeyEdit = { name: string; description: string; expiresAt: string | null };
export function checkApiKeyEdit(edit: ApiKeyEdit, now: Date): FieldErrors {
  const errors: FieldErrors = {};
  checkText(errors, 'name', 'Name', edit.name, { max: maxApiKeyNameLength, required: true });
  checkText(errors, 'description', 'Description', edit.description, { max: maxApiKeyDescriptionLength });
  if (edit.expiresAt !== null) {
    const at = Date.parse(edit.expiresAt);
    if (Number.isNaN(at)) errors.expiresAt = fieldMessages.invalid('Expiry date');
    else if (at <= now.getTime()) errors.expiresAt = fieldMessages.inPast('Expiry date');
  }
  return errors;
}

export type { PaymentMethod };
