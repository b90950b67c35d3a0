/**
 * The hosts forward and replay may reach besides the listener and this machine. Adding one
 * is asked in a dialog of the main process (named host, "Cancel" by default): the window can
 * request it, never grant it. Removing needs no confirmation, since it only narrows.
 */
import { useState, type SyntheticEvent } from 'react';
import { Button } from '../../components/Button.tsx';
import { TextField } from '../../components/Field.tsx';
import { Panel } from '../../components/Page.tsx';
import { uiErrorOf } from '../../lib/errors.ts';
import { useFormErrors } from '../../lib/useFormErrors.ts';
import { useListenerStore } from './store.ts';

const FIELDS = ['url'] as const;

export function AllowedTargets({ allowedTargets }: { allowedTargets: readonly string[] }) {
  const allowTarget = useListenerStore((state) => state.allowTarget);
  const forgetTarget = useListenerStore((state) => state.forgetTarget);
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const [declined, setDeclined] = useState<string | null>(null);
  const errors = useFormErrors(FIELDS);

  const submit = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    errors.clear();
    setDeclined(null);
    if (url.trim() === '') {
      errors.setFieldErrors({ url: 'Give the address of your handler, e.g. https://hooks.example.com.' });
      return;
    }
    setBusy(true);
    try {
      await allowTarget(url.trim());
      setUrl('');
    } catch (reason) {
      const error = uiErrorOf(reason);
      if (error.code === 'cancelled') setDeclined(error.message);
      else errors.setServerError(reason, '');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel title="Hosts forward and replay may reach">
      <div className="stack">
        <p className="muted">
          Forward, replay and edit-and-replay go to the listener itself and to this machine (127.0.0.1, localhost,
          [::1]). Any other host must be allowed here first; Ledgerdesk asks you to confirm in a system dialog. The
          bank’s Authorization header and the listener’s secret are never sent to them.
        </p>
        {allowedTargets.length === 0 ? (
          <p className="faint">No other host is allowed.</p>
        ) : (
          <ul className="stack" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label="Allowed hosts">
            {allowedTargets.map((origin) => (
              <li key={origin} className="row">
                <span className="mono grow">{origin}</span>
                <Button
                  variant="ghost"
                  onClick={() => {
                    void forgetTarget(origin).catch((reason: unknown) => {
                      errors.setServerError(reason, '');
                    });
                  }}
                  aria-label={`Remove ${origin}`}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        <form className="form" onSubmit={(event) => void submit(event)} noValidate aria-label="Allow a host">
          <TextField
            label="Host to allow"
            value={url}
            onChange={setUrl}
            error={errors.of('url') ?? (errors.form === null ? undefined : errors.form.message)}
            placeholder="https://hooks.example.com"
            hint={declined ?? 'Its origin (scheme, host and port) is allowed, for every path.'}
            autoComplete="off"
          />
          <div className="form-actions">
            <Button type="submit" busy={busy}>
              Allow host…
            </Button>
          </div>
        </form>
      </div>
    </Panel>
  );
}
