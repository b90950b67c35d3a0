import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  DocumentForm,
  documentRequestOf,
  EMPTY_DOCUMENT,
} from '../../../src/renderer/src/features/documents/DocumentForm.tsx';
import { RulesEditor } from '../../../src/renderer/src/features/listener/RulesEditor.tsx';
import { ProfileForm } from '../../../src/renderer/src/features/settings/ProfileForm.tsx';
import { WebhookForm } from '../../../src/renderer/src/features/webhooks/WebhookForm.tsx';
import { ipcErrorOf, LEDGERDESK_ERROR_NAME } from '../../../src/shared/ipc/errors.ts';
import './setup.tsx';

const bridgeError = (code: Parameters<typeof ipcErrorOf>[0], message: string, field?: string) => ({
  name: LEDGERDESK_ERROR_NAME,
  ...ipcErrorOf(code, message, field === undefined ? {} : { field }),
});

describe('WebhookForm', () => {
  it('checks the URL and the Basic pair with the shared schema before sending', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<WebhookForm onSubmit={onSubmit} onDone={() => undefined} onCancel={() => undefined} />);
    await user.type(screen.getByLabelText('URL'), 'not a url');
    await user.type(screen.getByLabelText(/Basic user/), 'ledgerdesk');
    await user.click(screen.getByRole('button', { name: 'Create webhook' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByLabelText('URL').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('must be an absolute http:// or https:// URL')).toBeTruthy();
    expect(screen.getByText('must be set together with basic_user')).toBeTruthy();
  });

  it('sends a valid request and puts the server’s error beside its field', async () => {
    const user = userEvent.setup();
    const onSubmit = vi
      .fn()
      .mockRejectedValue(bridgeError('bank_error', 'The bank refused the URL: it must be reachable.', 'request.url'));
    render(<WebhookForm onSubmit={onSubmit} onDone={() => undefined} onCancel={() => undefined} />);
    await user.type(screen.getByLabelText('URL'), 'https://example.com/hooks');
    await user.click(screen.getByRole('button', { name: 'Create webhook' }));
    expect(onSubmit).toHaveBeenCalledWith(
      { event: 'ach.update', url: 'https://example.com/hooks' },
      { allowHttp: false },
    );
    expect(await screen.findByText('The bank refused the URL: it must be reachable.')).toBeTruthy();
    expect(screen.getByLabelText('URL').getAttribute('aria-invalid')).toBe('true');
  });

  it('asks for http:// and loopback addresses only when the officer says the bank is a sandbox of their own (issue 37)', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn().mockResolvedValue(null);
    render(<WebhookForm onSubmit={onSubmit} onDone={() => undefined} onCancel={() => undefined} />);
    await user.type(screen.getByLabelText('URL'), 'http://127.0.0.1:4880/hooks');
    await user.click(screen.getByRole('checkbox', { name: /^A sandbox of my own that delivers to this machine/ }));
    await user.click(screen.getByRole('button', { name: 'Create webhook' }));
    expect(onSubmit).toHaveBeenCalledWith(
      { event: 'ach.update', url: 'http://127.0.0.1:4880/hooks' },
      { allowHttp: true },
    );
  });

  it('does not offer the sandbox-of-my-own box on the embedded sandbox, which reaches this machine already (issue 37)', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn().mockResolvedValue(null);
    render(<WebhookForm embeddedSandbox onSubmit={onSubmit} onDone={() => undefined} onCancel={() => undefined} />);
    expect(screen.queryByRole('checkbox', { name: /^A sandbox of my own that delivers to this machine/ })).toBeNull();
    expect(screen.getByText(/the embedded sandbox runs on this machine/)).toBeTruthy();
    await user.type(screen.getByLabelText('URL'), 'http://127.0.0.1:4880/hooks');
    await user.click(screen.getByRole('button', { name: 'Create webhook' }));
    expect(onSubmit).toHaveBeenCalledWith(
      { event: 'ach.update', url: 'http://127.0.0.1:4880/hooks' },
      { allowHttp: false },
    );
  });

  it('shows an error that names no field above the form', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn().mockRejectedValue(bridgeError('offline', 'The bank cannot be reached.'));
    render(
      <WebhookForm
        onSubmit={onSubmit}
        onDone={() => undefined}
        onCancel={() => undefined}
        defaultUrl="https://example.com/h"
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Create webhook' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The bank cannot be reached.');
  });
});

describe('ProfileForm', () => {
  it('sends a name with parentheses, and puts the server’s refusal of the name beside the name', async () => {
    const user = userEvent.setup();
    const onSubmit = vi
      .fn()
      .mockRejectedValue(bridgeError('conflict', 'A profile named Acme (staging) already exists.', 'name'));
    render(<ProfileForm onSubmit={onSubmit} onCancel={() => undefined} />);
    await user.type(screen.getByLabelText('Name'), 'Acme (staging)');
    await user.clear(screen.getByLabelText('Base URL'));
    await user.type(screen.getByLabelText('Base URL'), 'https://staging.bank.example');
    await user.type(screen.getByLabelText('API key id'), 'key_1');
    await user.type(screen.getByLabelText('API key secret'), 'secret-1');
    await user.click(screen.getByRole('button', { name: 'Add profile' }));
    expect(onSubmit).toHaveBeenCalledWith(
      {
        name: 'Acme (staging)',
        baseUrl: 'https://staging.bank.example',
        authScheme: 'basic',
        keyId: 'key_1',
        production: false,
      },
      'secret-1',
    );
    const shown = await screen.findByText('A profile named Acme (staging) already exists.');
    const name = screen.getByLabelText('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    // Beside the name field (its description), not above the form.
    expect(name.getAttribute('aria-describedby')).toContain(shown.id);
    expect(screen.getAllByRole('alert')).toEqual([shown]);
  });

  it('checks the name with the shared rule before sending', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<ProfileForm onSubmit={onSubmit} onCancel={() => undefined} />);
    await user.type(screen.getByLabelText('Name'), '(staging)');
    await user.click(screen.getByRole('button', { name: 'Add profile' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText('must start with a letter or digit')).toBeTruthy();
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('DocumentForm', () => {
  it('builds the request from the fields, the date of birth and the JSON editors', () => {
    const request = documentRequestOf({
      ...EMPTY_DOCUMENT,
      name: 'Passport of Jane',
      file_id: 'file_1',
      date_of_birth: '1990-02-03',
      extraFields: '{"number": "X1"}',
      userdata: '{"note": "ok"}',
    });
    expect(request).toEqual({
      ok: true,
      value: {
        type: 'passport',
        name: 'Passport of Jane',
        file_id: 'file_1',
        fields: { number: 'X1', date_of_birth: '1990-02-03' },
        userdata: { note: 'ok' },
      },
    });
  });

  it('refuses broken JSON and a wrong file id beside their fields, and sends nothing', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<DocumentForm onSubmit={onSubmit} upload={vi.fn()} />);
    await user.type(screen.getByLabelText('Name'), 'Passport');
    await user.type(screen.getByPlaceholderText('file_…'), 'doc_1');
    await user.type(screen.getByLabelText(/bankdata/), '{{"a": 1');
    await user.click(screen.getByRole('button', { name: 'Create document' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText('must be an id starting with file_')).toBeTruthy();
    expect(screen.getAllByText(/Not valid JSON/).length).toBeGreaterThan(0);
  });

  it('refuses userdata over 1 KB, as the service would', () => {
    const big = JSON.stringify({ note: 'x'.repeat(1100) });
    const request = documentRequestOf({ ...EMPTY_DOCUMENT, name: 'A', file_id: 'file_1', userdata: big });
    expect(request.ok).toBe(false);
    expect(!request.ok && request.errors['userdata']).toMatch(/1024 bytes/);
  });

  it('sends a valid document and shows a server error beside its field', async () => {
    const user = userEvent.setup();
    const onSubmit = vi
      .fn()
      .mockRejectedValue(bridgeError('bank_error', 'No file file_404 exists.', 'request.file_id'));
    render(<DocumentForm onSubmit={onSubmit} upload={vi.fn()} />);
    await user.type(screen.getByLabelText('Name'), 'Passport');
    await user.type(screen.getByPlaceholderText('file_…'), 'file_404');
    await user.click(screen.getByRole('button', { name: 'Create document' }));
    expect(onSubmit).toHaveBeenCalledWith({ type: 'passport', name: 'Passport', file_id: 'file_404', fields: {} });
    expect(await screen.findByText('No file file_404 exists.')).toBeTruthy();
  });
});

describe('RulesEditor', () => {
  it('saves valid rules and refuses an impossible status', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn().mockResolvedValue(undefined);
    const rules = [
      {
        id: 'r1',
        name: 'ACH fails',
        enabled: true,
        match: { event: 'ach.update' },
        response: { kind: 'failTimes' as const, times: 3, status: 500, thenStatus: 200 },
      },
    ];
    render(<RulesEditor rules={rules} onSave={onSave} />);
    await user.click(screen.getByRole('button', { name: 'Save rules' }));
    expect(onSave).toHaveBeenCalledWith([
      {
        id: 'r1',
        name: 'ACH fails',
        enabled: true,
        match: { event: 'ach.update' },
        response: { kind: 'failTimes', times: 3, status: 500, thenStatus: 200 },
      },
    ]);
    const status = screen.getByLabelText('Status');
    await user.clear(status);
    await user.type(status, '999');
    await user.click(screen.getByRole('button', { name: 'Save rules' }));
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alert').textContent).toContain('must be an HTTP status from 100 to 599');
  });
});
