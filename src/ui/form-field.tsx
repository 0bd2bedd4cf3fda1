// Labelled form controls with their error and hint tied to them (aria-invalid, aria-describedby), for the
// record forms of the portal. No business knowledge: labels, limits and messages come from the caller.
import { type ReactNode, type Ref, useId } from 'react';

type Common = { label: string; error?: string | undefined; hint?: ReactNode };

function describedBy(errorId: string, hintId: string, error?: string, hint?: ReactNode): string | undefined {
  const ids = [error ? errorId : null, hint ? hintId : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

export function TextField(
  props: Common & {
    value: string;
    onChange: (value: string) => void;
    maxLength?: number;
    required?: boolean;
    type?: 'text' | 'url' | 'number' | 'date' | 'color' | 'email';
    inputRef?: Ref<HTMLInputElement>;
    multiline?: boolean;
    placeholder?: string;
    disabled?: boolean;
    inputMode?: 'decimal' | 'numeric' | 'text';
  },
) {
  const { label, error, hint, value, onChange, maxLength, required, type = 'text', inputRef, multiline, placeholder, disabled, inputMode } = props;
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const shared = {
    id,
    value,
    required,
    placeholder,
    disabled,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(errorId, hintId, error, hint),
  };
  return (
    <div className="form-field">
      <label htmlFor={id}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {multiline ? (
        <textarea {...shared} rows={3} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input {...shared} ref={inputRef} type={type} inputMode={inputMode} onChange={(event) => onChange(event.target.value)} />
      )}
      {maxLength !== undefined && type === 'text' ? (
        <span className="form-field-count" aria-hidden="true">
          {value.length} / {maxLength}
        </span>
      ) : null}
      {hint ? (
        <span id={hintId} className="form-field-hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={errorId} className="form-field-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}

export function CheckboxField(props: Common & { checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean }) {
  const { label, error, hint, checked, onChange, disabled } = props;
  const id = useId();
  return (
    <div className="form-field form-field-check">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={describedBy(`${id}-error`, `${id}-hint`, error, hint)}
      />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <span id={`${id}-hint`} className="form-field-hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={`${id}-error`} className="form-field-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}

export function SelectField<V extends string>(
  props: Common & { value: V; options: readonly { value: V; label: string }[]; onChange: (value: V) => void; disabled?: boolean },
) {
  const { label, error, hint, value, options, onChange, disabled } = props;
  const id = useId();
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value as V)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(`${id}-error`, `${id}-hint`, error, hint)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {hint ? (
        <span id={`${id}-hint`} className="form-field-hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={`${id}-error`} className="form-field-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
