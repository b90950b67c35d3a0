/**
 * Issue 37's window parts: a remote profile's Network (proxy, its login, CA certificates) and
 * Listener → Setup's reach (public URL, a running ngrok tunnel offered, HTTPS served by the
 * listener). Checked with the contract's schemas before sending; what main refuses is shown
 * beside its field.
 */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ProfileNetworkForm } from '../../../src/renderer/src/features/settings/ProfileNetworkForm.tsx';
import { ListenerSetup } from '../../../src/renderer/src/features/listener/ListenerSetup.tsx';
import type { ListenerConfig, Profile } from '../../../src/shared/ipc/index.ts';
import { ipcErrorOf, LEDGERDESK_ERROR_NAME } from '../../../src/shared/ipc/errors.ts';
import './setup.tsx';

const remoteNetwork: NonNullable<Profile['network']> = {
  proxyMode: 'system',
  proxyUrl: null,
  proxyUser: null,
  proxyPasswordSet: false,
  caFile: null,
  summary: "Reaches the bank through the system's proxy settings.",
};

const remote: Profile = {
  id: 'prof_1',
  name: 'Acme sandbox',
  kind: 'remote',
  baseUrl: 'https://sandbox.acme.example',
  authScheme: 'basic',
  keyId: 'key_1',
  production: false,
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
  attention: null,
  network: remoteNetwork,
};

describe('ProfileNetworkForm', () => {
  it('shows the settings in a sentence, and the proxy address only for an explicit proxy', async () => {
    const user = userEvent.setup();
    render(<ProfileNetworkForm profile={remote} onSave={vi.fn()} />);
    expect(screen.getByText("Reaches the bank through the system's proxy settings.")).toBeTruthy();
    expect(screen.queryByLabelText('Proxy address')).toBeNull();
    await user.selectOptions(screen.getByLabelText('Proxy'), 'explicit');
    expect(screen.getByLabelText('Proxy address')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Proxy'), 'none');
    expect(screen.queryByLabelText(/Proxy user/)).toBeNull();
    expect(screen.queryByLabelText(/Proxy password/)).toBeNull();
  });

  it('refuses a proxy address with a password in it before sending, beside the field', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    render(<ProfileNetworkForm profile={remote} onSave={onSave} />);
    await user.selectOptions(screen.getByLabelText('Proxy'), 'explicit');
    await user.type(screen.getByLabelText('Proxy address'), 'http://alice:secret@proxy.example.com:3128');
    await user.click(screen.getByRole('button', { name: 'Save network' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Proxy address').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/must not contain a user or password/)).toBeTruthy();
  });

  it('sends the proxy, its login and the CA file; the password once, then never shown', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn().mockResolvedValue(undefined);
    render(<ProfileNetworkForm profile={remote} onSave={onSave} />);
    await user.selectOptions(screen.getByLabelText('Proxy'), 'explicit');
    await user.type(screen.getByLabelText('Proxy address'), 'proxy.example.com:3128');
    await user.type(screen.getByLabelText(/Proxy user/), 'alice');
    await user.type(screen.getByLabelText(/Proxy password/), 'pa55word');
    await user.type(screen.getByLabelText(/CA certificates/), '/etc/ssl/corp-ca.pem');
    await user.click(screen.getByRole('button', { name: 'Save network' }));
    await waitFor(() => {
      expect(onSave).toHaveBeenCalledWith({
        id: 'prof_1',
        proxyMode: 'explicit',
        proxyUrl: 'proxy.example.com:3128',
        proxyUser: 'alice',
        proxyPassword: 'pa55word',
        caFile: '/etc/ssl/corp-ca.pem',
      });
    });
    await waitFor(() => {
      expect(screen.getByLabelText<HTMLInputElement>(/Proxy password/).value).toBe('');
    });
  });

  it('keeps a stored password when left empty, and says it is in the keychain', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn().mockResolvedValue(undefined);
    const withLogin: Profile = {
      ...remote,
      network: { ...remoteNetwork, proxyMode: 'environment', proxyUser: 'alice', proxyPasswordSet: true },
    };
    render(<ProfileNetworkForm profile={withLogin} onSave={onSave} />);
    expect(screen.getByLabelText(/Proxy password/).getAttribute('placeholder')).toBe('•••••••• (in the keychain)');
    await user.click(screen.getByRole('button', { name: 'Save network' }));
    await waitFor(() => {
      expect(onSave).toHaveBeenCalledWith({
        id: 'prof_1',
        proxyMode: 'environment',
        proxyUser: 'alice',
        caFile: null,
      });
    });
  });

  it('puts main’s refusal of the CA file beside it', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn().mockRejectedValue({
      name: LEDGERDESK_ERROR_NAME,
      ...ipcErrorOf('invalid_input', 'The CA bundle /nope.pem does not exist: give the path of the PEM file.', {
        field: 'caFile',
      }),
    });
    render(<ProfileNetworkForm profile={remote} onSave={onSave} />);
    await user.type(screen.getByLabelText(/CA certificates/), '/nope.pem');
    await user.click(screen.getByRole('button', { name: 'Save network' }));
    expect(await screen.findByText(/The CA bundle \/nope\.pem does not exist/)).toBeTruthy();
    expect(screen.getByLabelText(/CA certificates/).getAttribute('aria-invalid')).toBe('true');
  });

  it('is nothing for the embedded sandbox, which is always reached directly', () => {
    const { container } = render(
      <ProfileNetworkForm profile={{ ...remote, kind: 'embedded', network: null }} onSave={vi.fn()} />,
    );
    expect(container.innerHTML).toBe('');
  });
});

const config: ListenerConfig = {
  host: '127.0.0.1',
  port: 4880,
  expectedBasicUser: null,
  expectedBasicSecretSet: false,
  rejectUnauthenticated: false,
  forwardTo: null,
  forwardUnverified: true,
  retention: { maxRequests: 100000, maxAgeDays: 30, maxBodyBytes: 1048576 },
  allowedTargets: [],
  publicUrl: null,
  tls: null,
};

describe('ListenerSetup: how the bank reaches the listener', () => {
  it('offers the public URL of a running ngrok tunnel, and saves it when used', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn().mockResolvedValue(config);
    const suggest = vi.fn().mockResolvedValue({
      publicUrl: 'https://abc123.ngrok-free.app',
      message:
        'ngrok tunnels https://abc123.ngrok-free.app to this listener (port 4880): use it as the public URL so the bank can reach it.',
    });
    render(<ListenerSetup config={config} onSave={onSave} suggestPublicUrl={suggest} />);
    const use = await screen.findByRole('button', { name: 'Use https://abc123.ngrok-free.app' });
    expect(suggest).toHaveBeenCalledTimes(1);
    await user.click(use);
    expect(screen.getByLabelText<HTMLInputElement>(/Public URL/).value).toBe('https://abc123.ngrok-free.app');
    expect(screen.queryByRole('button', { name: /^Use / })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => {
      expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ publicUrl: 'https://abc123.ngrok-free.app' }));
    });
  });

  it('says when no ngrok agent runs, and asks again on demand', async () => {
    const user = userEvent.setup();
    const suggest = vi.fn().mockResolvedValue({
      publicUrl: null,
      message: 'No ngrok agent is running on this machine (nothing answers http://127.0.0.1:4040).',
    });
    render(<ListenerSetup config={config} onSave={vi.fn()} suggestPublicUrl={suggest} />);
    expect(await screen.findByText(/No ngrok agent is running on this machine/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Look for an ngrok tunnel' }));
    await waitFor(() => {
      expect(suggest).toHaveBeenCalledTimes(2);
    });
  });

  it('does not ask when a public URL is set', () => {
    const suggest = vi.fn();
    render(
      <ListenerSetup
        config={{ ...config, publicUrl: 'https://hooks.example.com' }}
        onSave={vi.fn()}
        suggestPublicUrl={suggest}
      />,
    );
    expect(suggest).not.toHaveBeenCalled();
    expect(screen.getByLabelText<HTMLInputElement>(/Public URL/).value).toBe('https://hooks.example.com');
  });

  it('serves HTTPS with the certificate and key given, both or neither', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn().mockResolvedValue(config);
    render(<ListenerSetup config={config} onSave={onSave} />);
    expect(screen.queryByLabelText('Certificate file')).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: /Serve HTTPS/ }));
    await user.type(screen.getByLabelText('Certificate file'), '/home/me/listener.pem');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(onSave).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('Private key file'), '/home/me/listener.key');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => {
      expect(onSave).toHaveBeenCalledWith(
        expect.objectContaining({ tlsCertFile: '/home/me/listener.pem', tlsKeyFile: '/home/me/listener.key' }),
      );
    });
  });
});
