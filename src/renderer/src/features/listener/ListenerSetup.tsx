/**
 * Where and how the listener listens: port, expected Basic credentials, 401 on failure,
 * forward-to, and whether posts that fail verification are forwarded too (marked by
 * X-Ledgerdesk-Verdict; on by default). How the bank reaches it (issue 37): its public URL (a
 * tunnel's or a reverse proxy's, offered from a running ngrok agent when one tunnels to its
 * port), and HTTPS served by the listener itself. Shown in Listener → Setup and Settings →
 * Listener defaults; every change is audited in main as listener.configure.
 */
import { useEffect, useState, type SyntheticEvent } from 'react';
import {
  listenerConfigureInput,
  type ListenerConfig,
  type ListenerTunnelSuggestion,
} from '../../../../shared/ipc/index.ts';
import type { ApiInput } from '../../../../shared/ipc/index.ts';
import { Button } from '../../components/Button.tsx';
import { Checkbox, TextField } from '../../components/Field.tsx';
import { Panel } from '../../components/Page.tsx';
import { InlineError } from '../../components/States.tsx';
import { validate } from '../../lib/schemaForm.ts';
import { useFormErrors } from '../../lib/useFormErrors.ts';
import { AllowedTargets } from './AllowedTargets.tsx';
import './listenerReach.css';

const FIELDS = [
  'port',
  'expectedBasicUser',
  'expectedBasicSecret',
  'forwardTo',
  'host',
  'publicUrl',
  'tlsCertFile',
  'tlsKeyFile',
] as const;

export function ListenerSetup({
  config,
  onSave,
  suggestPublicUrl,
}: {
  config: ListenerConfig;
  onSave: (input: ApiInput<'listener', 'configure'>) => Promise<ListenerConfig>;
  /** Asks main for a tunnel to the listener's port (ngrok's local agent); absent: nothing offered. */
  suggestPublicUrl?: () => Promise<ListenerTunnelSuggestion>;
}) {
  const [port, setPort] = useState(config.port === null ? '' : String(config.port));
  const [user, setUser] = useState(config.expectedBasicUser ?? '');
  const [secret, setSecret] = useState('');
  const [reject, setReject] = useState(config.rejectUnauthenticated);
  const [forwardTo, setForwardTo] = useState(config.forwardTo ?? '');
  const [forwardUnverified, setForwardUnverified] = useState(config.forwardUnverified);
  const [publicUrl, setPublicUrl] = useState(config.publicUrl ?? '');
  const [serveHttps, setServeHttps] = useState(config.tls !== null);
  const [certFile, setCertFile] = useState(config.tls?.certFile ?? '');
  const [keyFile, setKeyFile] = useState(config.tls?.keyFile ?? '');
  const [offer, setOffer] = useState<ListenerTunnelSuggestion | null>(null);
  const [asking, setAsking] = useState(false);
  const [appendPath, setAppendPath] = useState(config.forwardAppendPath === true);
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors(FIELDS);

  const askForTunnel = async (): Promise<void> => {
    if (suggestPublicUrl === undefined) return;
    setAsking(true);
    try {
      setOffer(await suggestPublicUrl());
    } catch {
      setOffer({ publicUrl: null, message: 'ngrok’s local agent could not be asked.' });
    } finally {
      setAsking(false);
    }
  };
  // Without a public URL, a running ngrok tunnel to the listener is offered at once.
  const noPublicUrl = config.publicUrl === null;
  useEffect(() => {
    if (noPublicUrl) void askForTunnel();
    // Asked once, when Setup opens without a public URL.
  }, []);

  const submit = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    const input = {
      port: port.trim() === '' ? null : Number(port),
      expectedBasicUser: user.trim() === '' ? null : user.trim(),
      ...(secret === '' ? {} : { expectedBasicSecret: secret }),
      rejectUnauthenticated: reject,
      forwardTo: forwardTo.trim() === '' ? null : forwardTo.trim(),
      ...(forwardUnverified === config.forwardUnverified ? {} : { forwardUnverified }),
      publicUrl: publicUrl.trim() === '' ? null : publicUrl.trim(),
      ...(serveHttps
        ? { tlsCertFile: certFile.trim(), tlsKeyFile: keyFile.trim() }
        : config.tls === null
          ? {}
          : { tlsCertFile: null, tlsKeyFile: null }),
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
          <h3 className="listener-reach-title">How the bank reaches it</h3>
          <TextField
            label="Public URL"
            optional
            value={publicUrl}
            onChange={setPublicUrl}
            error={errors.of('publicUrl')}
            placeholder="https://abc123.ngrok-free.app"
            autoComplete="off"
            hint="Where the bank reaches this listener: a tunnel’s address (ngrok, cloudflared, ssh -R) or a reverse proxy’s. Register with bank gives it to the bank, and requests addressed to it are answered. See docs/listener-reach.md."
          />
          {suggestPublicUrl === undefined ? null : (
            <div className="listener-tunnel-offer" role="status">
              {offer === null ? null : <span className="muted">{offer.message}</span>}
              {offer?.publicUrl != null && offer.publicUrl !== publicUrl.trim() ? (
                <Button
                  size="sm"
                  onClick={() => {
                    setPublicUrl(offer.publicUrl ?? '');
                  }}
                >
                  Use {offer.publicUrl}
                </Button>
              ) : null}
              <Button size="sm" variant="ghost" busy={asking} onClick={() => void askForTunnel()}>
                Look for an ngrok tunnel
              </Button>
            </div>
          )}
          <Checkbox
            label="Serve HTTPS"
            hint="With your own certificate, for a bank or tunnel that reaches the listener directly over TLS. Applies at the next start."
            checked={serveHttps}
            onChange={setServeHttps}
          />
          {serveHttps ? (
            <div className="listener-tls-files">
              <TextField
                label="Certificate file"
                value={certFile}
                onChange={setCertFile}
                error={errors.of('tlsCertFile')}
                placeholder="/path/to/listener.crt.pem"
                autoComplete="off"
              />
              <TextField
                label="Private key file"
                value={keyFile}
                onChange={setKeyFile}
                error={errors.of('tlsKeyFile')}
                placeholder="/path/to/listener.key.pem"
                autoComplete="off"
              />
            </div>
          ) : null}
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
