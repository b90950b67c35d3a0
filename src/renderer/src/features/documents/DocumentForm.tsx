/**
 * Create a document: type, name, file, fields (with a date-of-birth picker and any other
 * fields as JSON), bankdata and userdata as JSON. Checked with the shared
 * documentCreateRequest schema before sending; server errors land beside their field.
 */
import { useState, type SyntheticEvent } from 'react';
import {
  DOCUMENT_TYPES,
  documentCreateRequest,
  type DocumentResponse,
  type DocumentCreateRequest,
  type FileResponse,
} from '../../../../shared/bank/index.ts';
import { Button } from '../../components/Button.tsx';
import { DateField } from '../../components/DateField.tsx';
import { SelectField, TextField } from '../../components/Field.tsx';
import { FilePicker, type MediaType } from '../../components/FilePicker.tsx';
import { JsonEditor } from '../../components/JsonEditor.tsx';
import { InlineError } from '../../components/States.tsx';
import { parseJsonObjectText } from '../../lib/jsonText.ts';
import { validate } from '../../lib/schemaForm.ts';
import { useFormErrors } from '../../lib/useFormErrors.ts';

const FIELDS = ['type', 'name', 'file_id', 'fields', 'bankdata', 'userdata', 'fields.date_of_birth'] as const;

const TYPE_LABELS: Record<string, string> = {
  drivers_license: 'Driver’s license',
  military_id: 'Military id',
  passport: 'Passport',
  state_id: 'State id',
  other: 'Other',
};

export interface DocumentFormValues {
  type: string;
  name: string;
  file_id: string;
  date_of_birth: string;
  extraFields: string;
  bankdata: string;
  userdata: string;
}

export const EMPTY_DOCUMENT: DocumentFormValues = {
  type: 'passport',
  name: '',
  file_id: '',
  date_of_birth: '',
  extraFields: '',
  bankdata: '',
  userdata: '',
};

/** The request the form's values make, or the problems that stop it. */
export function documentRequestOf(
  values: DocumentFormValues,
): { ok: true; value: DocumentCreateRequest } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const extra = parseJsonObjectText(values.extraFields);
  const bankdata = parseJsonObjectText(values.bankdata);
  const userdata = parseJsonObjectText(values.userdata);
  if (!extra.ok) errors['fields'] = extra.message;
  if (!bankdata.ok) errors['bankdata'] = bankdata.message;
  if (!userdata.ok) errors['userdata'] = userdata.message;
  const fields: Record<string, unknown> = { ...(extra.ok ? extra.value : {}) };
  if (values.date_of_birth !== '') fields['date_of_birth'] = values.date_of_birth;
  const candidate: Record<string, unknown> = {
    type: values.type,
    name: values.name,
    file_id: values.file_id.trim(),
    fields,
  };
  if (bankdata.ok && bankdata.value !== undefined) candidate['bankdata'] = bankdata.value;
  if (userdata.ok && userdata.value !== undefined) candidate['userdata'] = userdata.value;
  const checked = validate(documentCreateRequest, candidate);
  if (!checked.ok) Object.assign(errors, { ...checked.errors, ...errors });
  if (Object.keys(errors).length > 0 || !checked.ok) return { ok: false, errors };
  return { ok: true, value: checked.value };
}

export interface DocumentFormProps {
  onSubmit: (request: DocumentCreateRequest) => Promise<DocumentResponse | null>;
  upload: (contentType: MediaType, bytes: Uint8Array) => Promise<FileResponse>;
}

export function DocumentForm({ onSubmit, upload }: DocumentFormProps) {
  const [values, setValues] = useState<DocumentFormValues>(EMPTY_DOCUMENT);
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors(FIELDS);
  const change = (field: keyof DocumentFormValues) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
  };

  const submit = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    const request = documentRequestOf(values);
    if (!request.ok) {
      errors.setFieldErrors(request.errors);
      return;
    }
    errors.clear();
    setBusy(true);
    try {
      const created = await onSubmit(request.value);
      if (created !== null) setValues(EMPTY_DOCUMENT);
    } catch (reason) {
      errors.setServerError(reason);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate aria-label="New document">
      {errors.form === null ? null : <InlineError error={errors.form} />}
      <div className="split">
        <SelectField
          label="Type"
          value={values.type}
          onChange={change('type')}
          options={DOCUMENT_TYPES.map((type) => ({ value: type, label: TYPE_LABELS[type] ?? type }))}
          error={errors.of('type')}
        />
        <DateField
          label="Date of birth"
          optional
          value={values.date_of_birth}
          onChange={change('date_of_birth')}
          error={errors.of('fields.date_of_birth')}
          max={new Date().toISOString().slice(0, 10)}
        />
      </div>
      <TextField
        label="Name"
        value={values.name}
        onChange={change('name')}
        error={errors.of('name')}
        placeholder="Passport of Jane Doe"
      />
      <FilePicker
        label="File"
        fileId={values.file_id}
        onFileId={change('file_id')}
        accept={['image/png', 'image/jpeg', 'application/pdf']}
        upload={upload}
        error={errors.of('file_id')}
      />
      <JsonEditor
        label="Other fields"
        optional
        value={values.extraFields}
        onChange={change('extraFields')}
        error={errors.of('fields')}
        hint='Data encoded in the document besides the date of birth, e.g. {"number": "X123"}.'
        rows={3}
      />
      <div className="split">
        <JsonEditor
          label="bankdata"
          optional
          value={values.bankdata}
          onChange={change('bankdata')}
          error={errors.of('bankdata')}
          rows={4}
        />
        <JsonEditor
          label="userdata"
          optional
          value={values.userdata}
          onChange={change('userdata')}
          error={errors.of('userdata')}
          hint="At most 1 KB of JSON."
          rows={4}
        />
      </div>
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={busy}>
          Create document
        </Button>
      </div>
    </form>
  );
}
