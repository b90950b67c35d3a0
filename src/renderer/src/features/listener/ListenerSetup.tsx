/**
 * Where and how the listener listens: port, expected Basic credentials, 401 on failure,
 * forward-to, and whether posts that fail verification are forwarded too (marked by
 * X-Ledgerdesk-Verdict; on by default). Shown in Listener → Setup and Settings → Listener
 * defaults; every change is audited in main as listener.configure.
 */
import { useState, type SyntheticEvent } from 'react';
import { listenerConfigureInput, type ListenerConfig } from '../../../../shared/ipc/index.ts';
import type { ApiInput } from '../../../../shared/ipc/index.ts';
import { Button } from '../../components/Button.tsx';
import { Checkbox, TextField } from '../../components/Field.tsx';
import { Panel } from '../../components/Page.tsx';
import { InlineError } from '../../components/States.tsx';
import { validate } from '../../lib/schemaForm.ts';
import { useFormErrors } from '../../lib/useFormErrors.ts';
import { AllowedTargets } from './AllowedTargets.tsx';

const FIELDS = ['port', 'expectedBasicUser', 'expectedBasicSecret', 'forwardTo', 'host'] as const;

export function ListenerSetup({
  config,
  onSave,
}: {
  config: ListenerConfig;
  onSave: (input: ApiInput<'listener', 'configure'>) => Promise<ListenerConfig>;
}) {
  const [port, setPort] = useState(config.port === null ? '' : String(config.port));
  const [user, setUser] = useState(config.expectedBasicUser ?? '');
  const [secret, setSecret] = useState('');
  const [reject, setReject] = useState(config.rejectUnauthenticated);
  const [forwardTo, setForwardTo] = useState(config.forwardTo ?? '');
  const [forwardUnverified, setForwardUnverified] = useState(config.forwardUnverified);
  const [appendPath, setAppendPath] = useState(config.forwardAppendPath === true);
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors(FIELDS);

  const submit = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    const input = {
      port: port.trim() === '' ? null : Number(port),
      expectedBasicUser: user.trim() === '' ? null : user.trim(),
      ...(secret === '' ? {} : { expectedBasicSecret: secret }),
      rejectUnauthenticated: reject,
      forwardTo: forwardTo.trim() === '' ? null : forwardTo.trim(),
      ...(forwardUnverified === config.forwardUnverified ? {} : { forwardUnverified }),
      ...(appendPath === (config.forwardAppendPath === true) ? {} : { forwardAppendPath: appendPath }),
    };
    const checked = validate(listenerConfigureInput, input);
    if (!checked.ok) {
      errors.setFieldErrors(checked.errors);
      return;
    }
    errors.clear();
    setBusy(true);
    try {
      await onSave(input);
      setSecret('');
    } catch (reason) {
      errors.setServerError(reason, '');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="columns">
      <Panel title="Listener settings">
        <form className="form" onSubmit={(event) => void submit(event)} noValidate aria-label="Listener settings">
          {errors.form === null ? null : <InlineError error={errors.form} />}
          <TextField
            label="Port"
            value={port}
            onChange={setPort}
            error={errors.of('port')}
            inputMode="numeric"
            hint={`Listens on ${config.host}. Remembered across restarts; empty picks a free port.`}
          />
          <TextField
            label="Expected Basic user"
            optional
            value={user}
            onChange={setUser}
            error={errors.of('expectedBasicUser')}
            autoComplete="off"
          />
          <TextField
            label="Expected Basic secret"
            optional
            type="password"
            value={secret}
            onChange={setSecret}
            error={errors.of('expectedBasicSecret')}
            autoComplete="new-password"
            placeholder={config.expectedBasicSecretSet ? '•••••••• (set in the keychain)' : 'not set'}
            hint="Kept in the OS keychain; it is never shown again. Leave empty to keep the current one."
          />
          <Checkbox
            label="Answer 401 when the credentials are wrong"
            hint="Otherwise every request is answered as received, with its verdict recorded."
            checked={reject}
            onChange={setReject}
          />
          <TextField
            label="Forward to"
            optional
            value={forwardTo}
            onChange={setForwardTo}
            error={errors.of('forwardTo')}
            placeholder="http://127.0.0.1:3000/webhooks"
            hint="Each notification is also sent to your handler, to exactly this address: on this machine, or a host allowed below."
          />
          <Checkbox
            label="Add the received path to the address"
            hint={`Off: every notification goes to ${forwardTo.trim() === '' ? 'the address above' : forwardTo.trim()} as written. On: a notification received on /webhooks/abc goes to ${forwardTo.trim() === '' ? 'the address' : forwardTo.trim().replace(/\/+$/, '')}/webhooks/abc.`}
            checked={appendPath}
            onChange={setAppendPath}
          />
          <Checkbox
            label="Forward unverified posts too"
            hint="Marked by the X-Ledgerdesk-Verdict header (missing_header, wrong_secret…) so your handler can refuse them. Off: they are kept here but not forwarded."
            checked={forwardUnverified}
            onChange={setForwardUnverified}
          />
          <div className="form-actions">
            <Button type="submit" variant="primary" busy={busy}>
              Save settings
            </Button>
          </div>
        </form>
      </Panel>
      <Panel title="Retention">
        <p className="muted">
          Keeps at most {config.retention.maxRequests.toLocaleString('en-US')} requests
          {config.retention.maxAgeDays === null ? '' : `, for ${config.retention.maxAgeDays} days`}; bodies up to{' '}
          {config.retention.maxBodyBytes.toLocaleString('en-US')} bytes.
        </p>
      </Panel>
      <AllowedTargets allowedTargets={config.allowedTargets} />
    </div>
  );
}
