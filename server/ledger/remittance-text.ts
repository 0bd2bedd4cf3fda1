// The remittance text a transfer carries to the bank: what the beneficiary's bank statement shows beside the amount,
// so finance can match the credit on the statement to the transfer (and, through it, to the payouts it pays). Short
// (at most 140 characters, the SEPA unstructured remittance field), in the SEPA character set, and unique: it starts
// with the transfer's id (the ledger_transfers key), which nothing ever truncates, then names the business and the
// transfer's day for people reading the statement.
//
// A business group's transfer: R{business account number}-{yyyymmdd}, posted as transfer:{id}.
// A merchant group's daily transfer: T{batch id without its B}, posted as transfer:{batch id}.

export const maxRemittanceTextLength = 140;

/** Characters a SEPA credit transfer's remittance information may hold; anything else reads as '-'. */
const sepaSafe = (value: string) => value.replace(/[^A-Za-z0-9/?:().,'+ -]/g, '-');

export function remittanceText(transfer: { id: string; businessId: string; transferDate: Date }): string {
  const day = transfer.transferDate.toISOString().slice(0, 10);
  return sepaSafe(`PAYOUT ${transfer.id} BUSINESS ${transfer.businessId} ${day}`).slice(0, maxRemittanceTextLength);
}

/** The transfer a transfer posting pays ('transfer:R…' a business transfer, 'transfer:B…' a merchant batch's), or null. */
export function transferIdOfPosting(postingId: string): string | null {
  if (!postingId.startsWith('transfer:')) return null;
  const rest = postingId.slice('transfer:'.length);
  if (rest.startsWith('R')) return rest;
  if (rest.startsWith('B')) return `T${rest.slice(1)}`;
  return null;
}
