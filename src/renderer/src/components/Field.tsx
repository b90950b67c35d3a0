/**
 * Labelled form fields. Each shows its problem beside it, whether it came from the shared
 * schema before sending or from the server after (`aria-invalid`, `aria-describedby`).
 */
import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';

interface FieldFrameProps {
  label: string;
  id: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: ReactNode;
  optional?: boolean;
  /** Below the hint or error: how the field works (a JSON editor's keys). */
  footnote?: ReactNode;
}

export function FieldFrame({ label, id, error, hint, children, optional = false, footnote }: FieldFrameProps) {
  return (
    <div className={`field${error === undefined ? '' : ' has-error'}`}>
      <label className="field-label" htmlFor={id}>
        {label}
        {optional ? <span className="field-optional">optional</span> : null}
      </label>
      {children}
      {error === undefined ? (
        hint === undefined ? null : (
          <div className="field-hint" id={`${id}-hint`}>
            {hint}
          </div>
        )
      ) : (
        <div className="field-error" id={`${id}-error`} role="alert">
          {error}
        </div>
      )}
      {footnote}
    </div>
  );
}

function describedBy(id: string, error: string | undefined, hint: ReactNode): string | undefined {
  if (error !== undefined) return `${id}-error`;
  return hint === undefined ? undefined : `${id}-hint`;
}

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: ReactNode;
  optional?: boolean;
}

export function TextField({ label, value, onChange, error, hint, optional, ...rest }: TextFieldProps) {
  const id = useId();
  return (
    <FieldFrame label={label} id={id} error={error} hint={hint} optional={optional}>
      <input
        id={id}
        className="input"
        value={value}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={describedBy(id, error, hint)}
        onChange={(event) => {
          onChange(event.target.value);
        }}
        {...rest}
      />
    </FieldFrame>
  );
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly (string | { value: string; label: string })[];
  error?: string | undefined;
  hint?: ReactNode;
  /** A first option meaning "none" (for filters), e.g. "Any type". */
  placeholder?: string;
}

export function SelectField({ label, value, onChange, options, error, hint, placeholder, ...rest }: SelectFieldProps) {
  const id = useId();
  return (
    <FieldFrame label={label} id={id} error={error} hint={hint}>
      <Select
        id={id}
        value={value}
        onChange={onChange}
        options={options}
        placeholder={placeholder}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={describedBy(id, error, hint)}
        {...rest}
      />
    </FieldFrame>
  );
}

export function Select({
  value,
  onChange,
  options,
  placeholder,
  className,
  ...rest
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> & {
  value: string;
  onChange: (value: string) => void;
  options: readonly (string | { value: string; label: string })[];
  placeholder?: string | undefined;
}) {
  return (
    <select
      className={`input select${className === undefined ? '' : ' ' + className}`}
      value={value}
      onChange={(event) => {
        onChange(event.target.value);
      }}
      {...rest}
    >
      {placeholder === undefined ? null : <option value="">{placeholder}</option>}
      {options.map((option) => {
        const entry = typeof option === 'string' ? { value: option, label: option } : option;
        return (
          <option key={entry.value} value={entry.value}>
            {entry.label}
          </option>
        );
      })}
    </select>
  );
}

export function Checkbox({
  label,
  checked,
  onChange,
  hint,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className="checkbox">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => {
          onChange(event.target.checked);
        }}
      />
      <label htmlFor={id}>
        {label}
        {hint === undefined ? null : <span className="field-hint">{hint}</span>}
      </label>
    </div>
  );
}
