// Shared bits of the payment job screens: status chips, step names, addresses by the spec's rules.
import { statusLabelOf, type StatusKind } from '../../src/contract/payment-job-labels.ts';

export function statusTone(status: string): 'success' | 'danger' | 'warning' | 'info' | 'neutral' {
  if (['paid', 'captured', 'completed', 'commissioned', 'verified', 'authorised'].includes(status)) return 'success';
  if (['declined', 'failed', 'rejected', 'blocked'].includes(status)) return 'danger';
  if (['pending', 'reserved', 'requested', 'processing'].includes(status)) return 'warning';
  if (['cancelled', 'expired', 'voided'].includes(status)) return 'neutral';
  return 'info';
}

/** A state's chip: its one label (src/contract/payment-job-labels.ts) for its kind of thing, default a job's or payment's. */
export function StatusChip({ status, kind = 'payment' }: { status: string; kind?: StatusKind }) {
  const tone = kind === 'chargeback' && status === 'paid' ? 'danger' : statusTone(kind === 'refund' && status === 'completed' ? 'completed' : status);
  return (
    <span className="status-chip" data-tone={tone}>
      {statusLabelOf(kind, status)}
    </span>
  );
}

/** A step of a payment's life, in words. */
export const statusLabel = (step: string) => statusLabelOf('step', step);

const addressOrder = [
  ['title', 'firstName', 'middleName', 'lastName'],
  ['organisation', 'department'],
  ['addressLine1'],
  ['addressLine2'],
  ['zipCode', 'city'],
  ['stateProvince'],
  ['countryIso3166Alpha2'],
] as const;

/** An address as lines; a phone number whose type is Unknown is shown without its type (spec: the type is hidden). */
export function AddressBlock({ address }: { address: Record<string, string | null> | null }) {
  if (!address) return <p>None given.</p>;
  const lines = addressOrder
    .map((fields) =>
      fields
        .map((field) => address[field])
        .filter((value) => value)
        .join(' '),
    )
    .filter((line) => line);
  const phones = (
    [
      ['phoneNumber1', 'phoneNumber1Type'],
      ['phoneNumber2', 'phoneNumber2Type'],
    ] as const
  )
    .filter(([number]) => address[number])
    .map(([number, kind]) => (address[kind] && address[kind] !== 'Unknown' ? `${address[number]} (${address[kind]})` : address[number]));
  return (
    <address className="address-block">
      {lines.map((line) => (
        <div key={line}>{line}</div>
      ))}
      {phones.map((phone) => (
        <div key={phone}>Phone {phone}</div>
      ))}
    </address>
  );
}
