// Display names of payment methods. A notification's payment method 'Other' is shown as 'Wallet' (spec).

const labels: Record<string, string> = {
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
  other: 'Wallet',
};

export function formatPaymentMethod(method: string | null | undefined): string {
  if (!method) return 'N/A';
  const known = labels[method] ?? labels[method.charAt(0).toLowerCase() + method.slice(1)];
  if (known) return known;
  // Unknown codes read as words: 'someNewMethod' → 'Some new method'.
  const words = method.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
