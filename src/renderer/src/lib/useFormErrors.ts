/**
 * The errors of a form: from the shared schema before sending, then from the server
 * (placed beside the field it names, or above the form when it names none).
 */
import { useState } from 'react';
import { fieldNameOf, sentenceOf, uiErrorOf, type UiError } from './errors.ts';
import type { FieldErrors } from './schemaForm.ts';

export interface FormErrors {
  fields: FieldErrors;
  form: UiError | null;
  setFieldErrors: (errors: FieldErrors) => void;
  setServerError: (reason: unknown, prefix?: string) => void;
  clear: () => void;
  of: (field: string) => string | undefined;
}

/** Places a server error: beside its field when it names one the form has, else above. */
function placeServerError(
  error: UiError,
  knownFields: readonly string[],
  prefix = 'request.',
): { fields: FieldErrors; form: UiError | null } {
  const path = error.field;
  if (path !== undefined) {
    const relative = path.startsWith(prefix) ? path.slice(prefix.length) : path;
    const name = knownFields.includes(relative) ? relative : fieldNameOf(error);
    if (name !== null && knownFields.includes(name)) return { fields: { [name]: sentenceOf(error) }, form: null };
  }
  return { fields: {}, form: error };
}

export function useFormErrors(knownFields: readonly string[]): FormErrors {
  const [fields, setFields] = useState<FieldErrors>({});
  const [form, setForm] = useState<UiError | null>(null);
  return {
    fields,
    form,
    setFieldErrors(errors) {
      setFields(errors);
      setForm(errors[''] === undefined ? null : { code: 'invalid_input', message: errors[''], retryable: false });
    },
    setServerError(reason, prefix) {
      const placed = placeServerError(uiErrorOf(reason), knownFields, prefix);
      setFields(placed.fields);
      setForm(placed.form);
    },
    clear() {
      setFields({});
      setForm(null);
    },
    of(field) {
      return fields[field];
    },
  };
}
