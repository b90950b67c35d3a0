/**
 * Listener → Requests → Import… (issue 27): the chosen file's text goes to
 * listener.importRequests with its name; the answer and a refusal (the line named) are
 * told in a toast; a file over the cap is refused before anything is sent.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { ImportRequestsButton } from '../../../src/renderer/src/features/listener/ImportRequests.tsx';
import { useToastStore } from '../../../src/renderer/src/stores/toasts.ts';
import { LISTENER_IMPORT_MAX_CHARS } from '../../../src/shared/ipc/domains/listener.ts';
import { installFakeBridge, refuse } from './setup.tsx';

function toasts(): [string, string, string | undefined][] {
  return useToastStore.getState().toasts.map((toast) => [toast.tone, toast.title, toast.body]);
}

beforeEach(() => {
  useToastStore.setState({ toasts: [] });
});

describe('ImportRequestsButton', () => {
  it('sends the file to listener.importRequests and says how many were imported and skipped', async () => {
    const bridge = installFakeBridge({
      'listener.importRequests': () => ({ imported: 3, alreadyKept: 1 }),
      'listener.listRequests': () => ({ rows: [], nextCursor: null, source: 'cache', asOf: null }),
    });
    render(<ImportRequestsButton />);
    const file = new File(['{"id":1}\n'], 'kept.jsonl', { type: 'application/x-ndjson' });
    await userEvent.upload(screen.getByTestId('listener-import-file'), file);
    await expect.poll(() => toasts().length).toBe(1);
    expect(bridge.calls.find((call) => call.channel === 'listener.importRequests')?.input).toEqual({
      fileName: 'kept.jsonl',
      text: '{"id":1}\n',
    });
    expect(toasts()).toContainEqual(['success', 'Imported 3 requests', '1 already kept, skipped (from kept.jsonl).']);
  });

  it('tells the refusal with the line main named', async () => {
    installFakeBridge({
      'listener.importRequests': () => {
        throw refuse('invalid_input', 'bad.jsonl: Line 2 is not JSON: each line of an export is one request.', 'text');
      },
    });
    render(<ImportRequestsButton />);
    await userEvent.upload(screen.getByTestId('listener-import-file'), new File(['x'], 'bad.jsonl'));
    await expect
      .poll(() => toasts().map(([tone, title]) => [tone, title]))
      .toContainEqual(['error', 'Import refused: nothing was imported']);
    expect(toasts()[0]?.[2]).toContain('Line 2 is not JSON');
  });

  it('refuses a file over the cap without sending it', async () => {
    const bridge = installFakeBridge({});
    render(<ImportRequestsButton />);
    const big = new File([new Uint8Array(LISTENER_IMPORT_MAX_CHARS + 1)], 'big.jsonl');
    await userEvent.upload(screen.getByTestId('listener-import-file'), big);
    await expect.poll(() => toasts().map(([, title]) => title)).toContain('Import refused');
    expect(bridge.calls.filter((call) => call.channel === 'listener.importRequests')).toHaveLength(0);
  });
});
