// The new beneficiary form, in a dialog: a company or a person (with date of birth), the bank account's name, IBAN
// (checked by its mod-97 checksum as you type) and BIC. The server checks all of it again and screens the name.
import { useState } from 'react';
import type { BeneficiaryKind } from '../../src/contract/beneficiaries.ts';
import type { BeneficiaryBody } from '../../src/contract/beneficiary-schemas.ts';
import { bicProblem, ibanProblem } from '../../src/contract/iban.ts';
import { Modal } from '../../src/ui/modal.tsx';

type Draft = {
  kind: BeneficiaryKind;
  companyName: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  nameOnBankAccount: string;
  iban: string;
  bic: string;
};
const empty: Draft = { kind: 'company', companyName: '', firstName: '', lastName: '', dateOfBirth: '', nameOnBankAccount: '', iban: '', bic: '' };

/** The problems a draft has, by field; none means it can be sent. */
export function draftProblems(draft: Draft): Partial<Record<keyof Draft, string>> {
  const problems: Partial<Record<keyof Draft, string>> = {};
  if (draft.kind === 'company' && !draft.companyName.trim()) problems.companyName = 'Enter the company name.';
  if (draft.kind === 'person') {
    if (!draft.firstName.trim()) problems.firstName = 'Enter the first name.';
    if (!draft.lastName.trim()) problems.lastName = 'Enter the last name.';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(draft.dateOfBirth)) problems.dateOfBirth = 'Enter the date of birth.';
  }
  if (!draft.nameOnBankAccount.trim()) problems.nameOnBankAccount = 'Enter the name on the bank account.';
  const iban = draft.iban.trim() ? ibanProblem(draft.iban) : 'Enter the IBAN.';
  if (iban) problems.iban = iban;
  const bic = draft.bic.trim() ? bicProblem(draft.bic) : 'Enter the BIC.';
  if (bic) problems.bic = bic;
  return problems;
}

export function toBody(draft: Draft): BeneficiaryBody {
  return draft.kind === 'company'
    ? {
        kind: 'company',
        companyName: draft.companyName.trim(),
        nameOnBankAccount: draft.nameOnBankAccount.trim(),
        iban: draft.iban,
        bic: draft.bic.trim().toUpperCase(),
      }
    : {
        kind: 'person',
        firstName: draft.firstName.trim(),
        lastName: draft.lastName.trim(),
        dateOfBirth: draft.dateOfBirth,
        nameOnBankAccount: draft.nameOnBankAccount.trim(),
        iban: draft.iban,
        bic: draft.bic.trim().toUpperCase(),
      };
}

export function BeneficiaryFormDialog({
  open,
  busy,
  onClose,
  onSubmit,
}: {
  open: boolean;
  busy: boolean;
  onClose: () => void;
  onSubmit: (body: BeneficiaryBody) => void;
}) {
  const [draft, setDraft] = useState<Draft>(empty);
  const [tried, setTried] = useState(false);
  const problems = draftProblems(draft);
  const shown = (field: keyof Draft) => ((tried || draft[field] !== '') && problems[field] ? problems[field] : null);
  const field = (name: keyof Draft, label: string, type = 'text') => {
    const problem = shown(name);
    return (
      <div className="risk-field">
        <label htmlFor={`beneficiary-${name}`}>{label}</label>
        <input
          id={`beneficiary-${name}`}
          type={type}
          value={draft[name]}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `beneficiary-${name}-problem` : undefined}
          onChange={(event) => setDraft({ ...draft, [name]: event.target.value })}
        />
        {problem ? (
          <span id={`beneficiary-${name}-problem`} className="risk-problem">
            {problem}
          </span>
        ) : null}
      </div>
    );
  };
  const close = () => {
    setDraft(empty);
    setTried(false);
    onClose();
  };
  return (
    <Modal
      open={open}
      title="New beneficiary"
      onClose={close}
      closeActionLabel="Cancel"
      size="md"
      footer={
        <button type="submit" form="beneficiary-form" className="button button-primary" disabled={busy}>
          Create and screen
        </button>
      }
    >
      <form
        id="beneficiary-form"
        className="risk-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTried(true);
          if (Object.keys(draftProblems(draft)).length === 0) onSubmit(toBody(draft));
        }}
      >
        <fieldset>
          <legend>Beneficiary is</legend>
          <label>
            <input type="radio" name="kind" checked={draft.kind === 'company'} onChange={() => setDraft({ ...draft, kind: 'company' })} /> A company
          </label>
          <label>
            <input type="radio" name="kind" checked={draft.kind === 'person'} onChange={() => setDraft({ ...draft, kind: 'person' })} /> A person
          </label>
        </fieldset>
        {draft.kind === 'company' ? (
          field('companyName', 'Company name')
        ) : (
          <>
            {field('firstName', 'First name')}
            {field('lastName', 'Last name')}
            {field('dateOfBirth', 'Date of birth', 'date')}
          </>
        )}
        {field('nameOnBankAccount', 'Name on the bank account')}
        {field('iban', 'IBAN')}
        {field('bic', 'BIC')}
        <p className="risk-note">The beneficiary is screened against the sanctions and PEP list when it is created; someone other than you approves it.</p>
      </form>
    </Modal>
  );
}
