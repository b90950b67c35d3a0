/**
 * Add or edit a profile: name, base URL, auth scheme, key id, Production flag, and the
 * secret (sent once to the keychain, never shown again). Checked with the contract's
 * profile schemas before sending.
 */
import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { AUTH_SCHEMES, profileCreateInput, type Profile } from '../../../../shared/ipc/index.ts';
import { Button } from '../../components/Button.tsx';
import { Checkbox, SelectField, TextField } from '../../components/Field.tsx';
import { InlineError } from '../../components/States.tsx';
import { validate } from '../../lib/schemaForm.ts';
import { useFormErrors } from '../../lib/useFormErrors.ts';

const FIELDS = ['name', 'baseUrl', 'authScheme', 'keyId', 'secret'] as const;

export interface ProfileFormValues {
  name: string;
  baseUrl: string;
  authScheme: 'basic' | 'bearer';
  keyId: string;
  production: boolean;
  secret: string;
}

export interface ProfileFormProps {
  profile?: Profile;
  onSubmit: (
    values: { name: string; baseUrl: string; authScheme: 'basic' | 'bearer'; keyId?: string; production: boolean },
    secret: string | null,
  ) => Promise<void>;
  onCancel: () => void;
}

export function ProfileForm({ profile, onSubmit, onCancel }: ProfileFormProps) {
  const [values, setValues] = useState<ProfileFormValues>({
    name: profile?.name ?? '',
    baseUrl: profile?.baseUrl ?? 'https://',
    authScheme: profile?.authScheme ?? 'basic',
    keyId: profile?.keyId ?? '',
    production: profile?.production ?? false,
    secret: '',
  });
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // A confirmation asked while saving (a new address, the Production guard) takes focus, and
  // the busy Save button cannot hold it: when saving ends, bring it back to Save.
  useEffect(() => {
    if (busy || form.current === null) return;
    if (document.activeElement === null || document.activeElement === document.body) {
      form.current.querySelector<HTMLButtonElement>('button[type="submit"]')?.focus();
    }
  }, [busy]);
  const errors = useFormErrors(FIELDS);
  const embedded = profile?.kind === 'embedded';

  const submit = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    const input = {
      name: values.name,
      baseUrl: values.baseUrl.trim(),
      authScheme: values.authScheme,
      ...(values.authScheme === 'basic' && values.keyId.trim() !== '' ? { keyId: values.keyId.trim() } : {}),
      production: values.production,
    };
    const checked = validate(profileCreateInput, input);
    const problems = checked.ok ? {} : { ...checked.errors };
    if (values.authScheme === 'basic' && values.keyId.trim() === '' && !embedded)
      problems['keyId'] = 'must be set for Basic authentication (the API key id)';
    if (profile === undefined && values.secret === '' && !embedded)
      problems['secret'] =
        values.authScheme === 'basic' ? 'must be set: the API key secret' : 'must be set: the bearer token';
    if (Object.keys(problems).length > 0) {
      errors.setFieldErrors(problems);
      return;
    }
    errors.clear();
    setBusy(true);
    try {
      await onSubmit(input, values.secret === '' ? null : values.secret);
    } catch (reason) {
      errors.setServerError(reason, '');
    } finally {
      setBusy(false);
    }
  };
  const change =
    <Key extends keyof ProfileFormValues>(key: Key) =>
    (value: ProfileFormValues[Key]) => {
      setValues((current) => ({ ...current, [key]: value }));
    };

  return (
    <form
      ref={form}
      className="form"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label={profile === undefined ? 'New profile' : `Edit ${profile.name}`}
    >
      {errors.form === null ? null : <InlineError error={errors.form} />}
      <TextField
        label="Name"
        value={values.name}
        onChange={change('name')}
        error={errors.of('name')}
        placeholder="Acme Bank — Sandbox"
      />
      <TextField
        label="Base URL"
        value={values.baseUrl}
        onChange={change('baseUrl')}
        error={errors.of('baseUrl')}
        disabled={embedded}
      />
      <div className="split">
        <SelectField
          label="Authentication"
          value={values.authScheme}
          onChange={(scheme) => {
            change('authScheme')(scheme === 'bearer' ? 'bearer' : 'basic');
          }}
          options={AUTH_SCHEMES.map((scheme) => ({
            value: scheme,
            label: scheme === 'basic' ? 'Basic (API key)' : 'Bearer token (JWT)',
          }))}
          error={errors.of('authScheme')}
        />
        {values.authScheme === 'basic' ? (
          <TextField
            label="API key id"
            value={values.keyId}
            onChange={change('keyId')}
            error={errors.of('keyId')}
            autoComplete="off"
          />
        ) : (
          <span />
        )}
      </div>
      <TextField
        label={values.authScheme === 'basic' ? 'API key secret' : 'Bearer token'}
        type="password"
        optional={profile !== undefined}
        value={values.secret}
        onChange={change('secret')}
        error={errors.of('secret')}
        autoComplete="new-password"
        hint={
          profile === undefined
            ? 'Goes straight to the OS keychain; Ledgerdesk never shows it again.'
            : 'Leave empty to keep the secret in the keychain.'
        }
      />
      <Checkbox
        label="Production"
        hint="Marks the profile unmistakably; every write asks for confirmation."
        checked={values.production}
        onChange={change('production')}
      />
      <div className="form-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy}>
          {profile === undefined ? 'Add profile' : 'Save profile'}
        </Button>
      </div>
    </form>
  );
}
