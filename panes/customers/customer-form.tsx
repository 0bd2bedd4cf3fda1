// Adding (Shift+N on the customers) and changing (Shift+E on a customer) a merchant's stored customer, in a dialog:
// reference, names, email, date of birth and the billing address with a phone number and its type. The checks are
// the server's own (checkCustomerEdit), shown once the form was submitted. Fields the form does not show (a shipping
// address, a second phone, an organisation) are sent back as they were. Customers hold no bank account: no IBAN here.
import type { ReactNode, Ref } from 'react';
import { checkCustomerEdit, customerFieldLimits, type CustomerEdit } from '../../src/contract/customers.ts';
import type { Customer, CustomerBody } from '../../src/contract/customer-schemas.ts';
import { countryCodes, phoneNumberTypes, salutations } from '../../src/contract/enumerations.ts';
import { SelectField, TextField } from '../../src/ui/form-field.tsx';
import { Modal } from '../../src/ui/modal.tsx';

export type CustomerDraft = {
  reference: string;
  title: string;
  firstName: string;
  middleName: string;
  lastName: string;
  emailAddress: string;
  dateOfBirth: string;
  addressLine1: string;
  addressLine2: string;
  zipCode: string;
  city: string;
  country: string;
  phoneNumber: string;
  phoneType: string;
};

export const emptyCustomerDraft: CustomerDraft = {
  reference: '',
  title: '',
  firstName: '',
  middleName: '',
  lastName: '',
  emailAddress: '',
  dateOfBirth: '',
  addressLine1: '',
  addressLine2: '',
  zipCode: '',
  city: '',
  country: '',
  phoneNumber: '',
  phoneType: '',
};

export function customerDraftOf(customer: Customer): CustomerDraft {
  const address = customer.billingAddress;
  return {
    reference: customer.reference,
    title: (salutations as readonly string[]).includes(customer.title ?? '') ? (customer.title ?? '') : '',
    firstName: customer.firstName,
    middleName: customer.middleName ?? '',
    lastName: customer.lastName,
    emailAddress: customer.emailAddress ?? '',
    dateOfBirth: customer.dateOfBirth ?? '',
    addressLine1: address?.addressLine1 ?? '',
    addressLine2: address?.addressLine2 ?? '',
    zipCode: address?.zipCode ?? '',
    city: address?.city ?? '',
    country: address?.countryIso3166Alpha2 ?? '',
    phoneNumber: address?.phoneNumber1 ?? '',
    phoneType: address?.phoneNumber1Type && address.phoneNumber1Type !== 'Unknown' ? address.phoneNumber1Type : '',
  };
}

const orNull = (value: string) => value.trim() || null;

export function customerEditOf(draft: CustomerDraft): CustomerEdit {
  const address = {
    addressLine1: orNull(draft.addressLine1),
    addressLine2: orNull(draft.addressLine2),
    zipCode: orNull(draft.zipCode),
    city: orNull(draft.city),
    countryIso3166Alpha2: orNull(draft.country),
    phoneNumber1: orNull(draft.phoneNumber),
  };
  return {
    reference: draft.reference.trim(),
    firstName: draft.firstName.trim(),
    middleName: orNull(draft.middleName),
    lastName: draft.lastName.trim(),
    emailAddress: orNull(draft.emailAddress),
    dateOfBirth: orNull(draft.dateOfBirth),
    billingAddress: Object.values(address).some((value) => value !== null) ? address : null,
  };
}

export const customerDraftProblems = (draft: CustomerDraft, today = new Date().toISOString().slice(0, 10)) =>
  checkCustomerEdit(customerEditOf(draft), today, countryCodes);

type StoredAddress = NonNullable<Customer['billingAddress']>;
/** An address's stored fields the form does not show, kept as they were (only those the body accepts). */
function keptAddressFields(address: StoredAddress | null | undefined) {
  if (!address) return {};
  const { organisation, department, stateProvince, phoneNumber2, phoneNumber2Type, firstName, middleName, lastName } = address;
  const kept = { organisation, department, stateProvince, phoneNumber2, phoneNumber2Type, firstName, middleName, lastName };
  return Object.fromEntries(Object.entries(kept).filter(([, value]) => value !== undefined && value !== null));
}

/** The POST / PUT body (without version); `existing` carries the fields the form does not edit. */
export function customerBodyOf(draft: CustomerDraft, existing?: Customer): CustomerBody {
  const edit = customerEditOf(draft);
  const billing =
    edit.billingAddress || existing?.billingAddress
      ? {
          ...keptAddressFields(existing?.billingAddress),
          ...(edit.billingAddress ?? { addressLine1: null, addressLine2: null, zipCode: null, city: null, countryIso3166Alpha2: null, phoneNumber1: null }),
          phoneNumber1Type: edit.billingAddress?.phoneNumber1 && draft.phoneType ? (draft.phoneType as (typeof phoneNumberTypes)[number]) : null,
        }
      : null;
  const shipping = existing?.shippingAddress
    ? Object.fromEntries(
        Object.entries(existing.shippingAddress).filter(
          ([key, value]) => value !== null && value !== undefined && (key !== 'title' || (salutations as readonly string[]).includes(String(value))),
        ),
      )
    : null;
  return {
    reference: edit.reference,
    title: draft.title ? (draft.title as (typeof salutations)[number]) : null,
    firstName: edit.firstName,
    middleName: edit.middleName,
    lastName: edit.lastName,
    emailAddress: edit.emailAddress,
    dateOfBirth: edit.dateOfBirth,
    billingAddress: billing as CustomerBody['billingAddress'],
    shippingAddress: shipping as CustomerBody['shippingAddress'],
  };
}

const countryNames = new Intl.DisplayNames(['en-GB'], { type: 'region' });
const countryOptions = [
  { value: '', label: 'Not given' },
  ...countryCodes.map((code) => ({ value: code, label: countryNames.of(code) ?? code })).sort((a, b) => a.label.localeCompare(b.label, 'en-GB')),
];
const titleOptions = [{ value: '', label: 'None' }, ...salutations.map((title) => ({ value: title, label: title }))];
const phoneTypeOptions = [
  { value: '', label: 'Not given' },
  ...phoneNumberTypes.filter((type) => type !== 'Unknown').map((type) => ({ value: type, label: type })),
];

type Props = {
  open: boolean;
  title: string;
  submitLabel: string;
  draft: CustomerDraft;
  onChange: (draft: CustomerDraft) => void;
  /** the form was submitted once: every field's problem shows */
  tried: boolean;
  busy: boolean;
  onSubmit: () => void;
  onCancel: () => void;
  firstField?: Ref<HTMLInputElement>;
  /** above the fields: a record-changed notice, the other side's version after a 409 */
  notice?: ReactNode;
};

export function CustomerFormDialog({ open, title, submitLabel, draft, onChange, tried, busy, onSubmit, onCancel, firstField, notice }: Props) {
  const problems = tried ? customerDraftProblems(draft) : {};
  const set = (change: Partial<CustomerDraft>) => onChange({ ...draft, ...change });
  const limits = customerFieldLimits;
  return (
    <Modal
      open={open}
      title={title}
      onClose={onCancel}
      closeActionLabel="Cancel"
      size="lg"
      footer={
        <button type="submit" form="customer-form" className="button button-primary" disabled={busy}>
          {submitLabel}
        </button>
      }
    >
      <form
        id="customer-form"
        noValidate
        aria-label={title}
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {notice}
        <div className="form-grid">
          <TextField
            inputRef={firstField}
            label="Reference"
            required
            maxLength={limits.reference}
            value={draft.reference}
            error={problems.reference}
            hint="Your own key for this customer: letters, digits, dot, dash or underscore."
            onChange={(reference) => set({ reference })}
          />
          <SelectField label="Title" value={draft.title} options={titleOptions} onChange={(value) => set({ title: value })} />
          <TextField
            label="First name"
            required
            maxLength={limits.firstName}
            value={draft.firstName}
            error={problems.firstName}
            onChange={(firstName) => set({ firstName })}
          />
          <TextField
            label="Middle name"
            maxLength={limits.middleName}
            value={draft.middleName}
            error={problems.middleName}
            onChange={(middleName) => set({ middleName })}
          />
          <TextField
            label="Last name"
            required
            maxLength={limits.lastName}
            value={draft.lastName}
            error={problems.lastName}
            onChange={(lastName) => set({ lastName })}
          />
          <TextField
            label="Email address"
            type="email"
            value={draft.emailAddress}
            error={problems.emailAddress}
            onChange={(emailAddress) => set({ emailAddress })}
          />
          <TextField
            label="Date of birth"
            type="date"
            value={draft.dateOfBirth}
            error={problems.dateOfBirth}
            onChange={(dateOfBirth) => set({ dateOfBirth })}
          />
        </div>
        <fieldset className="customer-address">
          <legend>Billing address</legend>
          <div className="form-grid">
            <TextField
              label="Address line 1"
              maxLength={limits.addressLine1}
              value={draft.addressLine1}
              error={problems['billingAddress.addressLine1']}
              onChange={(addressLine1) => set({ addressLine1 })}
            />
            <TextField
              label="Address line 2"
              maxLength={limits.addressLine2}
              value={draft.addressLine2}
              error={problems['billingAddress.addressLine2']}
              onChange={(addressLine2) => set({ addressLine2 })}
            />
            <TextField
              label="Postcode"
              maxLength={limits.zipCode}
              value={draft.zipCode}
              error={problems['billingAddress.zipCode']}
              onChange={(zipCode) => set({ zipCode })}
            />
            <TextField label="City" maxLength={limits.city} value={draft.city} error={problems['billingAddress.city']} onChange={(city) => set({ city })} />
            <SelectField
              label="Country"
              value={draft.country}
              options={countryOptions}
              error={problems['billingAddress.countryIso3166Alpha2']}
              onChange={(country) => set({ country })}
            />
            <TextField
              label="Phone number"
              value={draft.phoneNumber}
              error={problems['billingAddress.phoneNumber1']}
              hint="Digits, spaces, brackets and dashes; a leading + for the country code."
              onChange={(phoneNumber) => set({ phoneNumber })}
            />
            <SelectField label="Phone type" value={draft.phoneType} options={phoneTypeOptions} onChange={(phoneType) => set({ phoneType })} />
          </div>
        </fieldset>
      </form>
    </Modal>
  );
}
