/**
 * What the documents and card-art screens share: the history beside the form, the load that
 * follows the active profile, and the file upload behind their file pickers.
 */
import { act, render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { HistoryPanel, type HistoryView } from '../../../src/renderer/src/components/HistoryPanel.tsx';
import { useConfirmStore } from '../../../src/renderer/src/stores/confirm.ts';
import { uploadFile } from '../../../src/renderer/src/stores/files.ts';
import { useActiveProfileLoad, useProfilesStore } from '../../../src/renderer/src/stores/profiles.ts';
import { installFakeBridge } from './setup.tsx';

interface Upload {
  id: string;
  fileId: string;
}

const VIEW: HistoryView<Upload> = {
  title: 'Uploaded from this app',
  what: 'Upload history',
  label: 'Uploads made here',
  emptyTitle: 'Nothing uploaded yet',
  emptyBody: 'Uploads you make appear here.',
  columns: ['Upload', 'File'],
  cells: (upload) => (
    <>
      <td>{upload.id}</td>
      <td>{upload.fileId}</td>
    </>
  ),
};

const UPLOADS: Upload[] = [
  { id: 'up_1', fileId: 'file_1' },
  { id: 'up_2', fileId: 'file_2' },
];

const profileNamed = (id: string, production: boolean) => ({
  id,
  name: production ? 'Acme Bank' : 'Embedded sandbox',
  kind: production ? 'remote' : 'embedded',
  baseUrl: 'http://127.0.0.1:4010',
  authScheme: 'basic',
  keyId: 'demo',
  production,
  createdAt: '2026-11-21T10:00:00Z',
  updatedAt: '2026-11-21T10:00:00Z',
});

describe('HistoryPanel', () => {
  it('shows loading only while it has no rows, then the rows under their columns', () => {
    const { rerender } = render(
      <HistoryPanel
        view={VIEW}
        history={{ history: [], historyLoading: true, historyError: null }}
        onRetry={vi.fn()}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Uploaded from this app' })).toBeTruthy();
    expect(screen.getByText('Loading…')).toBeTruthy();
    // A reload keeps the rows it already shows rather than blanking them.
    rerender(
      <HistoryPanel
        view={VIEW}
        history={{ history: UPLOADS, historyLoading: true, historyError: null }}
        onRetry={vi.fn()}
      />,
    );
    expect(screen.queryByText('Loading…')).toBeNull();
    const table = screen.getByRole('table', { name: 'Uploads made here' });
    expect([...table.querySelectorAll('th')].map((cell) => cell.textContent)).toEqual(['Upload', 'File']);
    expect([...table.querySelectorAll('tbody tr')].map((row) => row.textContent)).toEqual(['up_1file_1', 'up_2file_2']);
  });

  it('says when nothing was made here yet', () => {
    render(
      <HistoryPanel
        view={VIEW}
        history={{ history: [], historyLoading: false, historyError: null }}
        onRetry={vi.fn()}
      />,
    );
    expect(screen.getByText('Nothing uploaded yet')).toBeTruthy();
    expect(screen.getByText('Uploads you make appear here.')).toBeTruthy();
  });

  it('puts the error in place of the rows and offers to try again', async () => {
    const onRetry = vi.fn();
    const historyError = { code: 'bank_error', message: 'The bank core is offline (HTTP 503).', retryable: true };
    render(
      <HistoryPanel
        view={VIEW}
        history={{ history: UPLOADS, historyLoading: false, historyError }}
        onRetry={onRetry}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('Could not load upload history');
    expect(screen.queryByRole('table')).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});

describe('useActiveProfileLoad', () => {
  it('loads for the active profile, again when it changes, and on retry', () => {
    useProfilesStore.setState({ activeProfileId: null });
    const load = vi.fn(() => Promise.resolve());
    const { result } = renderHook(() => useActiveProfileLoad(load));
    expect(load).not.toHaveBeenCalled();
    act(() => {
      useProfilesStore.setState({ activeProfileId: 'embedded' });
    });
    act(() => {
      useProfilesStore.setState({ activeProfileId: 'prod' });
    });
    act(() => {
      result.current();
    });
    expect(load.mock.calls).toEqual([['embedded'], ['prod'], ['prod']]);
  });
});

describe('uploadFile', () => {
  it('refuses without an active profile, and sends nothing when Production is not confirmed', async () => {
    const bridge = installFakeBridge({});
    await expect(uploadFile(null, 'image/png', new Uint8Array([1]))).rejects.toThrow('No profile is active.');
    useProfilesStore.setState({ profiles: [profileNamed('prod', true)] as never, activeProfileId: 'prod' });
    const upload = uploadFile('prod', 'image/png', new Uint8Array([1]));
    await vi.waitFor(() => {
      expect(useConfirmStore.getState().request?.body).toContain('Upload a file on Acme Bank');
    });
    useConfirmStore.getState().answer(false);
    await expect(upload).rejects.toThrow('The upload was cancelled.');
    expect(bridge.calls.filter((call) => call.channel === 'files.upload')).toEqual([]);
  });

  it('uploads on the given profile, marked confirmed only when Production said yes', async () => {
    const record = {
      id: 'file_1',
      content_type: 'image/png',
      content_length: 1,
      content_hash: 'a'.repeat(40),
      created_at: '2026-11-21T10:00:00Z',
      updated_at: '2026-11-21T10:00:00Z',
    };
    const bridge = installFakeBridge({ 'files.upload': () => record });
    useProfilesStore.setState({ profiles: [profileNamed('embedded', false)] as never, activeProfileId: 'embedded' });
    expect(await uploadFile('embedded', 'image/png', new Uint8Array([1]))).toEqual(record);
    useProfilesStore.setState({ profiles: [profileNamed('prod', true)] as never, activeProfileId: 'prod' });
    const upload = uploadFile('prod', 'application/pdf', new Uint8Array([2]));
    await vi.waitFor(() => {
      expect(useConfirmStore.getState().request).not.toBeNull();
    });
    useConfirmStore.getState().answer(true);
    await upload;
    const inputs = bridge.calls.map((call) => call.input);
    expect(inputs[0]).toMatchObject({ profileId: 'embedded', contentType: 'image/png' });
    expect(inputs[0]).not.toHaveProperty('confirmProduction');
    expect(inputs[1]).toMatchObject({ profileId: 'prod', contentType: 'application/pdf', confirmProduction: true });
  });
});
