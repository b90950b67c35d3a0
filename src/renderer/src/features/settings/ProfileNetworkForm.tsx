/**
 * How a remote profile reaches its bank (docs/network.md): the proxy (the system's settings,
 * HTTPS_PROXY / HTTP_PROXY / NO_PROXY, one named here, or none), the proxy's login (its
 * password goes straight to the keychain and is never shown again), and a CA bundle file
 * trusted beside the OS's store, for an organisation that inspects HTTPS. Checked with the
 * contract's schema before sending; main reads and checks the CA file when it is saved.
 */
import { useState, type SyntheticEvent } from 'react';
import { profileNetworkInput, type Profile } from '../../../../shared/ipc/index.ts';
import { PROXY_MODE_LABELS, PROXY_MODES, type ProxyMode } from '../../../../shared/profiles/networkFields.ts';
import { Button } from '../../components/Button.tsx';
import { SelectField, TextField } from '../../components/Field.tsx';
import { InlineError } from '../../components/States.tsx';
import { validate } from '../../lib/schemaForm.ts';
import { useFormErrors } from '../../lib/useFormErrors.ts';
import './profileNetwork.css';

const FIELDS = ['proxyMode', 'proxyUrl', 'proxyUser', 'proxyPassword', 'caFile'] as const;

const MODE_HINTS: Readonly<Record<ProxyMode, string>> = {
  system:
    'As the operating system says, per address (PAC and WPAD included); the command line and web mode read HTTPS_PROXY / HTTP_PROXY / NO_PROXY.',
  environment:
    'HTTPS_PROXY / HTTP_PROXY and NO_PROXY of the environment Ledgerdesk started in, as curl and npm read them.',
  explicit: 'Every request goes through this proxy (a CONNECT tunnel: the proxy never sees the bank’s credentials).',
  none: 'Straight to the bank, whatever the system or the environment says.',
};

export interface ProfileNetworkFormProps {
  profile: Profile;
  onSave: (input: {
    id: string;
    proxyMode: ProxyMode;
    proxyUrl?: string | null;
    proxyUser?: string | null;
    proxyPassword?: string | null;
    caFile: string | null;
  }) => Promise<void>;
}

export function ProfileNetworkForm({ profile, onSave }: ProfileNetworkFormProps) {
  const network = profile.network;
  const [mode, setMode] = useState<ProxyMode>(network?.proxyMode ?? 'system');
  const [proxyUrl, setProxyUrl] = useState(network?.proxyUrl ?? '');
  const [proxyUser, setProxyUser] = useState(network?.proxyUser ?? '');
  const [proxyPassword, setProxyPassword] = useState('');
  const [caFile, setCaFile] = useState(network?.caFile ?? '');
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors(FIELDS);
  if (network === null) return null;

  const submit = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    const user = mode === 'none' ? '' : proxyUser.trim();
    const input = {
      id: profile.id,
      proxyMode: mode,
      ...(mode === 'explicit' ? { proxyUrl: proxyUrl.trim() } : {}),
      proxyUser: user === '' ? null : user,
      // Empty keeps the stored password; a new user without one is said by main's answer.
      ...(user === '' ? { proxyPassword: null } : proxyPassword === '' ? {} : { proxyPassword }),
      caFile: caFile.trim() === '' ? null : caFile.trim(),
    };
    const checked = validate(profileNetworkInput, input);
    if (!checked.ok) {
      errors.setFieldErrors(checked.errors);
      return;
    }
    errors.clear();
    setBusy(true);
    try {
      await onSave(input);
      setProxyPassword('');
    } catch (reason) {
      errors.setServerError(reason, '');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="form profile-network"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label={`Network of ${profile.name}`}
    >
      <h3 className="profile-network-title">Network</h3>
      <p className="muted profile-network-summary">{network.summary}</p>
      {errors.form === null ? null : <InlineError error={errors.form} />}
      <SelectField
        label="Proxy"
        value={mode}
        onChange={(value) => {
          setMode((PROXY_MODES as readonly string[]).includes(value) ? (value as ProxyMode) : 'system');
        }}
        options={PROXY_MODES.map((value) => ({ value, label: PROXY_MODE_LABELS[value] }))}
        error={errors.of('proxyMode')}
        hint={MODE_HINTS[mode]}
      />
      {mode === 'explicit' ? (
        <TextField
          label="Proxy address"
          value={proxyUrl}
          onChange={setProxyUrl}
          error={errors.of('proxyUrl')}
          placeholder="http://proxy.example.com:3128"
          autoComplete="off"
        />
      ) : null}
      {mode === 'none' ? null : (
        <div className="profile-network-pair">
          <TextField
            label="Proxy user"
            optional
            value={proxyUser}
            onChange={setProxyUser}
            error={errors.of('proxyUser')}
            autoComplete="off"
            hint="When the proxy asks for a login (Basic)."
          />
          <TextField
            label="Proxy password"
            optional
            type="password"
            value={proxyPassword}
            onChange={setProxyPassword}
            error={errors.of('proxyPassword')}
            autoComplete="new-password"
            placeholder={network.proxyPasswordSet ? '•••••••• (in the keychain)' : 'not set'}
            hint="Goes straight to the OS keychain. Empty keeps the stored one."
          />
        </div>
      )}
      <TextField
        label="CA certificates"
        optional
        value={caFile}
        onChange={setCaFile}
        error={errors.of('caFile')}
        placeholder="/etc/ssl/certs/example-corp-ca.pem"
        autoComplete="off"
        hint="A PEM file of your organisation’s CA, for a proxy that inspects HTTPS. Trusted beside the operating system’s store; certificate checks are never turned off."
      />
      <div className="form-actions">
        <Button type="submit" busy={busy}>
          Save network
        </Button>
      </div>
    </form>
  );
}
