// The hosted payment page as the shopper sees it: one pure renderer (markup and stylesheet as text) that both the
// server's shopper page (GET /pay/{ref}, no JavaScript needed) and the editor's live preview (a sandboxed frame)
// use, so the preview is the page. Everything user-supplied is escaped; colours are checked #RRGGBB before they
// reach the stylesheet, and the logo is only ever an image reference of ours.
import { hostedPageFontStacks, paymentMethodLabels, type HostedPageDesign } from './configurations.ts';
import type { PaymentMethod } from './enumerations.ts';
import { currencyExponent } from './transactions.ts';

/** An order line as the job holds it: the unit price (incl. VAT) in minor units; the page formats it and its total. */
export type HostedPageOrderLine = { description: string; quantity: number; unitPriceMinor: number; currency: string };

/** Money on the page: en-GB, in the currency's decimals ('£17.50'); an unknown code shows as '17.50 XYZ'. */
export function formatHostedPageMoney(amountMinor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency, minimumFractionDigits: exponent, maximumFractionDigits: exponent }).format(
      amountMinor / 10 ** exponent,
    );
  } catch {
    return `${(amountMinor / 10 ** exponent).toFixed(exponent)} ${currency}`;
  }
}

/**
 * The one formatter of the order lines' cells, for the shopper's page and the editor's preview alike: the unit price
 * and the line's total (unit price × quantity), so neither can show one where the other shows the other.
 */
export function hostedPageOrderLineCells(line: HostedPageOrderLine): { unitPrice: string; amount: string } {
  return {
    unitPrice: formatHostedPageMoney(line.unitPriceMinor, line.currency),
    amount: formatHostedPageMoney(line.unitPriceMinor * line.quantity, line.currency),
  };
}

export type HostedPageView = {
  design: HostedPageDesign;
  merchantName: string;
  /** formatted, e.g. '£42.50' */
  amount: string;
  orderNumber: string;
  orderLines: readonly HostedPageOrderLine[];
  /** the methods the shopper can really pay with here (shopperPaymentOptions), with their display names */
  paymentMethods: readonly { method: string; label: string }[];
  /** switched-on methods this page cannot take, by display name: the page says so plainly */
  unavailableMethods?: readonly string[];
  /** why nothing can be paid here, when paymentMethods is empty (the page then shows no card form) */
  unpayableReason?: string;
  /** preview: a form that cannot submit; live: posts to formAction */
  mode: 'preview' | 'live';
  formAction?: string;
  /** hidden fields of the live form (the anti-forgery token) */
  hiddenFields?: Readonly<Record<string, string>>;
  /** a message above the form (a declined card) */
  error?: string | null;
  /** values to keep in the form after a refusal */
  values?: { cardholderName?: string; expiry?: string };
  /** where images are served from: '' for same origin */
  imageBase?: string;
};

// ── what the shopper's page can really take ──
/**
 * This portal has no acquirer: its shopper page takes cards, and only the published test cards are approved
 * (server/payments/shopper-payment.ts). Every other method switched on in a configuration is named on the page as
 * not available here, never offered as a choice that could not be paid.
 */
export const shopperPayableMethods: readonly PaymentMethod[] = ['card'];
export const testCardNote =
  'This is a test environment: only the published test cards are accepted (for example 4111 1111 1111 1111, any future expiry date and any security code). No real card is charged.';

export type ShopperMethodSetting = {
  method: PaymentMethod;
  enabled: boolean;
  displayName: string;
  /** thousandths of the major unit, as stored (null: no limit) */
  minimumAmountMilli: number | null;
  maximumAmountMilli: number | null;
  /** empty: any currency */
  currencies: readonly string[];
};

export type ShopperPaymentOptions = {
  payable: { method: PaymentMethod; label: string }[];
  unavailable: string[];
  /** set when payable is empty */
  reason?: string;
};

const listOf = (names: readonly string[]) => (names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);

/**
 * The payment choices of a shopper page: the switched-on methods in the design's order, split into what can be paid
 * here (a card, within the card setting's currencies and amount limits when a payment is given) and the rest.
 * The preview passes no payment (its sample amount is not a real one), so only the limits are skipped there.
 */
export function shopperPaymentOptions(
  order: readonly PaymentMethod[],
  settings: readonly ShopperMethodSetting[],
  payment: { amountMilli: number; currency: string } | null,
): ShopperPaymentOptions {
  const enabled = settings.filter((setting) => setting.enabled);
  const ordered = [
    ...order.flatMap((method) => enabled.filter((setting) => setting.method === method)),
    ...enabled.filter((setting) => !order.includes(setting.method)),
  ];
  const label = (setting: ShopperMethodSetting) => setting.displayName.trim() || paymentMethodLabels[setting.method];
  const payable: ShopperPaymentOptions['payable'] = [];
  const unavailable: string[] = [];
  let reason: string | undefined;
  for (const setting of ordered) {
    if (!shopperPayableMethods.includes(setting.method)) {
      unavailable.push(label(setting));
      continue;
    }
    const problem = !payment
      ? null
      : setting.currencies.length > 0 && !setting.currencies.includes(payment.currency)
        ? `${label(setting)} payments are not accepted in ${payment.currency} by this shop.`
        : setting.minimumAmountMilli !== null && payment.amountMilli < setting.minimumAmountMilli
          ? `The amount is below this shop's minimum for ${label(setting)} payments.`
          : setting.maximumAmountMilli !== null && payment.amountMilli > setting.maximumAmountMilli
            ? `The amount is above this shop's maximum for ${label(setting)} payments.`
            : null;
    if (problem) {
      reason ??= problem;
      unavailable.push(label(setting));
    } else payable.push({ method: setting.method, label: label(setting) });
  }
  if (payable.length > 0) return { payable, unavailable };
  return { payable, unavailable, reason: reason ?? 'Card payments are not switched on for this shop.' };
}

const escapeHtml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const safeColour = (value: string, fallback: string) => (/^#[0-9A-Fa-f]{6}$/.test(value) ? value : fallback);

export function hostedPageCss(design: HostedPageDesign): string {
  const c = design.colours;
  const brand = safeColour(c.brand, '#1F3A93');
  const background = safeColour(c.background, '#FFFFFF');
  const text = safeColour(c.text, '#1B1B1F');
  const buttonBackground = safeColour(c.buttonBackground, brand);
  const buttonText = safeColour(c.buttonText, '#FFFFFF');
  const font = hostedPageFontStacks[design.font] ?? hostedPageFontStacks.System;
  return `
*,*::before,*::after{box-sizing:border-box}
html,body{margin:0;padding:0}
body{background:${background};color:${text};font-family:${font};font-size:16px;line-height:1.5}
.hpp{max-width:480px;margin:0 auto;padding:24px 16px 40px}
.hpp-header{display:flex;align-items:center;gap:12px;border-bottom:4px solid ${brand};padding-bottom:12px;margin-bottom:16px}
.hpp-logo{max-height:56px;max-width:200px;object-fit:contain}
.hpp-merchant{font-weight:600}
.hpp h1{font-size:24px;margin:0 0 8px}
.hpp-description{margin:0 0 16px}
.hpp-amount{font-size:28px;font-weight:700;margin:0 0 4px}
.hpp-order{font-size:14px;margin:0 0 16px;opacity:.85}
.hpp-lines{width:100%;border-collapse:collapse;margin:0 0 16px;font-size:14px}
.hpp-lines th,.hpp-lines td{text-align:left;padding:6px 4px;border-bottom:1px solid ${text}33}
.hpp-lines .end{text-align:right;white-space:nowrap}
.hpp-methods{border:1px solid ${text}55;border-radius:8px;padding:12px 16px;margin:0 0 16px}
.hpp-methods legend{font-weight:600;padding:0 4px}
.hpp-method{display:flex;gap:8px;align-items:center;padding:4px 0}
.hpp-field{display:grid;gap:4px;margin:0 0 12px;min-width:0}
.hpp-field label{font-weight:600;font-size:14px}
.hpp-field input{font:inherit;width:100%;min-width:0;padding:10px 12px;border:1px solid ${text}99;border-radius:6px;background:#FFFFFF;color:#1B1B1F}
/* minmax(0,1fr): a column may be narrower than its input's intrinsic width (the security code overflowed it) */
.hpp-row{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:12px}
.hpp-pay{width:100%;font:inherit;font-weight:700;padding:12px 16px;border:0;border-radius:8px;background:${buttonBackground};color:${buttonText};cursor:pointer}
.hpp-pay:focus-visible,.hpp-field input:focus-visible{outline:3px solid ${brand};outline-offset:2px}
.hpp-error{border:2px solid #B3261E;background:#FDECEA;color:#5F1410;border-radius:8px;padding:10px 12px;margin:0 0 16px}
.hpp-footer{margin-top:24px;font-size:13px;opacity:.85}
.hpp-note{font-size:13px;margin:8px 0 12px}
.hpp-unpayable{border:2px solid ${text}99;border-radius:8px;padding:12px 16px;margin:0 0 16px}
.hpp-unpayable h2{font-size:18px;margin:0 0 8px}
`;
}

/** The page's body content (no <html>/<head>): the same markup in the preview and the live page. */
export function hostedPageBody(view: HostedPageView): string {
  const { design } = view;
  const base = view.imageBase ?? '';
  const logo =
    design.logoImageReference && /^IMG[0-9A-F]{32}$/.test(design.logoImageReference)
      ? `<img class="hpp-logo" src="${escapeHtml(`${base}/api/portal/images/${design.logoImageReference}`)}" alt="${escapeHtml(view.merchantName)} logo">`
      : '';
  const lines =
    design.showOrderLines && view.orderLines.length > 0
      ? `<table class="hpp-lines"><caption class="hpp-order">Order lines</caption><thead><tr><th scope="col">Item</th><th scope="col" class="end">Quantity</th><th scope="col" class="end">Unit price</th><th scope="col" class="end">Amount</th></tr></thead><tbody>${view.orderLines
          .map((line) => {
            const cells = hostedPageOrderLineCells(line);
            return `<tr><td>${escapeHtml(line.description)}</td><td class="end">${line.quantity}</td><td class="end">${escapeHtml(cells.unitPrice)}</td><td class="end">${escapeHtml(cells.amount)}</td></tr>`;
          })
          .join('')}</tbody></table>`
      : '';
  const unavailable = view.unavailableMethods ?? [];
  const notHere =
    unavailable.length > 0
      ? `<p class="hpp-note hpp-unavailable">${escapeHtml(listOf(unavailable))} ${unavailable.length === 1 ? 'is' : 'are'} not available on this page.</p>`
      : '';
  const methods = `<fieldset class="hpp-methods"><legend>Payment method</legend>${view.paymentMethods.map((entry, index) => `<label class="hpp-method"><input type="radio" name="paymentMethod" value="${escapeHtml(entry.method)}"${index === 0 ? ' checked' : ''}> ${escapeHtml(entry.label)}</label>`).join('')}${notHere}</fieldset>`;
  const hidden = Object.entries(view.hiddenFields ?? {})
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  const live = view.mode === 'live';
  const action = live && view.formAction ? ` method="post" action="${escapeHtml(view.formAction)}"` : '';
  const error = view.error ? `<p class="hpp-error" role="alert">${escapeHtml(view.error)}</p>` : '';
  const values = view.values ?? {};
  const form =
    view.paymentMethods.length === 0
      ? `<div class="hpp-unpayable" role="status"><h2>This payment cannot be made on this page</h2><p>${escapeHtml(view.unpayableReason ?? 'No payment method that this page can take is switched on.')}</p>${notHere}<p>Contact ${escapeHtml(view.merchantName)} to pay another way.</p></div>`
      : `<form class="hpp-form"${action} aria-label="Payment">
${hidden}
${methods}
<div class="hpp-field"><label for="hpp-name">Name on card</label><input id="hpp-name" name="cardholderName" autocomplete="cc-name" maxlength="100" required value="${escapeHtml(values.cardholderName ?? '')}"></div>
<div class="hpp-field"><label for="hpp-number">Card number</label><input id="hpp-number" name="cardNumber" inputmode="numeric" autocomplete="cc-number" maxlength="23" required aria-describedby="hpp-test-cards"></div>
<div class="hpp-row">
<div class="hpp-field"><label for="hpp-expiry">Expiry date (MM/YY)</label><input id="hpp-expiry" name="expiry" autocomplete="cc-exp" maxlength="5" placeholder="MM/YY" required value="${escapeHtml(values.expiry ?? '')}"></div>
<div class="hpp-field"><label for="hpp-cvc">Security code</label><input id="hpp-cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required></div>
</div>
<p class="hpp-note" id="hpp-test-cards">${escapeHtml(testCardNote)}</p>
<button class="hpp-pay" type="${live ? 'submit' : 'button'}">${escapeHtml(design.texts.payButtonLabel)} ${escapeHtml(view.amount)}</button>
</form>`;
  return `<main class="hpp">
<header class="hpp-header">${logo}<span class="hpp-merchant">${escapeHtml(view.merchantName)}</span></header>
<h1>${escapeHtml(design.texts.title)}</h1>
${design.texts.description ? `<p class="hpp-description">${escapeHtml(design.texts.description)}</p>` : ''}
<p class="hpp-amount">${escapeHtml(view.amount)}</p>
<p class="hpp-order">Order ${escapeHtml(view.orderNumber)}</p>
${lines}
${error}
${form}
${design.texts.footer ? `<footer class="hpp-footer">${escapeHtml(design.texts.footer)}</footer>` : ''}
</main>`;
}

/** A whole document for the server (the style element carries the response's CSP nonce). */
export function hostedPageDocument(view: HostedPageView, options: { nonce: string; title: string }): string {
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<style nonce="${escapeHtml(options.nonce)}">${hostedPageCss(view.design)}</style>
</head>
<body>
${hostedPageBody(view)}
</body>
</html>`;
}

/** A page of one message (paid, cancelled, expired, not found), in the same look. */
export function hostedPageMessageDocument(
  design: HostedPageDesign,
  options: { nonce: string; title: string; heading: string; text: string; merchantName: string },
): string {
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<style nonce="${escapeHtml(options.nonce)}">${hostedPageCss(design)}</style>
</head>
<body>
<main class="hpp">
<header class="hpp-header"><span class="hpp-merchant">${escapeHtml(options.merchantName)}</span></header>
<h1>${escapeHtml(options.heading)}</h1>
<p>${escapeHtml(options.text)}</p>
</main>
</body>
</html>`;
}
