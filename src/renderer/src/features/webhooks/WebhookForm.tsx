/**
 * Create a webhook: event, URL, optional Basic credentials. Checked with the shared
 * webhookCreateRequest schema before sending; the server's errors land beside the field.
 * A bank other than the embedded sandbox is given only a public https:// address (issue 37);
 * "allow http" is the window's `--allow-http`: a sandbox of one's own that says it delivers to
 * this machine (main asks it, and refuses when it does not say so). On the embedded sandbox the
 * box is not shown: that bank is a process of this app, reaches loopback itself and is never
 * asked, so the box would mean nothing there (issue 37).
 */
import { useState, type SyntheticEvent } from 'react';
import {
  webhookCreateRequest,
  type WebhookResponse,
  type WebhookCreateRequest,
} from '../../../../shared/bank/index.ts';
import { EVENT_CATALOG } from '../../../../shared/eventCatalog/eventCatalog.ts';
import { Button } from '../../components/Button.tsx';
import { Checkbox, TextField } from '../../components/Field.tsx';
import { InlineError } from '../../components/States.tsx';
import { validate, withoutBlanks } from '../../lib/schemaForm.ts';
import { useFormErrors } from '../../lib/useFormErrors.ts';

const FIELDS = ['event', 'url', 'basic_user', 'basic_secret'] as const;

export interface WebhookFormProps {
  onSubmit: (request: WebhookCreateRequest, options: { allowHttp: boolean }) => Promise<WebhookResponse | null>;
  onDone: (webhook: WebhookResponse) => void;
  onCancel: () => void;
  defaultUrl?: string;
  /** The active profile is the embedded sandbox: any address on this machine is accepted as is. */
  embeddedSandbox?: boolean;
}

export function WebhookForm({
  onSubmit,
  onDone,
  onCancel,
  defaultUrl = '',
  embeddedSandbox = false,
}: WebhookFormProps) {
  const [values, setValues] = useState({ event: 'ach.update', url: defaultUrl, basic_user: '', basic_secret: '' });
  const [allowHttp, setAllowHttp] = useState(false);
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors(FIELDS);
  const change = (field: keyof typeof values) => (value: string) => {
    setValues({ ...values, [field]: value });
  };

  const submit = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    const checked = validate(webhookCreateRequest, withoutBlanks(values));
    if (!checked.ok) {
      errors.setFieldErrors(checked.errors);
      return;
    }
    errors.clear();
    setBusy(true);
    try {
      const webhook = await onSubmit(checked.value, { allowHttp: allowHttp && !embeddedSandbox });
      if (webhook !== null) onDone(webhook);
    } catch (reason) {
      errors.setServerError(reason);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate aria-label="New webhook">
      {errors.form === null ? null : <InlineError error={errors.form} />}
      <TextField
        label="Event"
        value={values.event}
        onChange={change('event')}
        error={errors.of('event')}
        list="known-events"
        hint="The event it subscribes to, like ach.update."
        autoComplete="off"
      />
      <datalist id="known-events">
        {EVENT_CATALOG.map(({ event, sandbox }) => (
          <option key={event} value={event} label={sandbox ? event : `${event} (real service only)`} />
        ))}
      </datalist>
      <TextField
        label="URL"
        value={values.url}
        onChange={change('url')}
        error={errors.of('url')}
        placeholder="https://example.com/webhooks"
        hint={
          embeddedSandbox
            ? 'Where the bank sends notifications: the embedded sandbox runs on this machine, so a local address such as http://127.0.0.1:4880/hooks works.'
            : 'Where the bank sends notifications: a public https:// address (a tunnel’s, for a listener on this machine).'
        }
      />
      <div className="split">
        <TextField
          label="Basic user"
          optional
          value={values.basic_user}
          onChange={change('basic_user')}
          error={errors.of('basic_user')}
          autoComplete="off"
        />
        <TextField
          label="Basic secret"
          optional
          type="password"
          value={values.basic_secret}
          onChange={change('basic_secret')}
          error={errors.of('basic_secret')}
          autoComplete="new-password"
        />
      </div>
      {embeddedSandbox ? null : (
        <Checkbox
          label="A sandbox of my own that delivers to this machine"
          checked={allowHttp}
          onChange={setAllowHttp}
          hint="Lets a plain http:// or loopback address through, once the bank confirms it delivers to such addresses (a Ledgerdesk sandbox does; a real bank never does)."
        />
      )}
      <div className="form-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy}>
          Create webhook
        </Button>
      </div>
    </form>
  );
}
