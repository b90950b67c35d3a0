/**
 * The one bridge builder: exactly the domains and methods of the contract, nothing generic;
 * calls go to the right channel and come back unwrapped; errors arrive as the plain error
 * shape; listeners get the payload only. Wired to the real router core, end to end.
 */
import { describe, expect, it, vi } from 'vitest';
import { buildLedgerdeskApi, type BridgeTransport } from '../../../src/shared/ipc/bridge.ts';
import { eventChannel, events, operations, subscriberName } from '../../../src/shared/ipc/contract.ts';
import { isLedgerdeskError, errorMessageOf } from '../../../src/shared/ipc/errors.ts';
import { samplePendingTransaction } from '../shared/sample.ts';
import { routerWith, trustedSender } from './fixtures.ts';

const NULL_ANSWER = { ok: true, value: null };

function fakeTransport(answer: unknown) {
  const listeners = new Map<string, Set<(...values: unknown[]) => void>>();
  const invoke = vi.fn((_channel: string, _input: unknown) => Promise.resolve(answer));
  const transport: BridgeTransport & { emit(channel: string, ...args: unknown[]): void } = {
    invoke,
    on(channel, listener) {
      const set = listeners.get(channel) ?? new Set();
      set.add(listener);
      listeners.set(channel, set);
      return () => set.delete(listener);
    },
    emit(channel, ...args) {
      for (const listener of listeners.get(channel) ?? []) {
        // Extra arguments (as Electron's event object) are passed to the bridge's listener.
        listener(...args);
      }
    },
  };
  return { transport, listeners, invoke };
}

describe('the API has exactly the shape of the contract', () => {
  const api = buildLedgerdeskApi(fakeTransport(NULL_ANSWER).transport);

  it('one object per domain, nothing more', () => {
    expect(Object.keys(api).sort()).toEqual(Object.keys(operations).sort());
  });

  it.each(Object.keys(operations))(
    '%s: the methods of the contract and its event subscribers, nothing more',
    (domain) => {
      const expected = [
        ...Object.keys(operations[domain as keyof typeof operations]),
        ...Object.keys((events as Record<string, object>)[domain] ?? {}).map(subscriberName),
      ].sort();
      const members = (api as unknown as Record<string, Record<string, unknown>>)[domain] ?? {};
      expect(Object.keys(members).sort()).toEqual(expected);
      for (const member of Object.values(members)) expect(typeof member).toBe('function');
    },
  );

  it('exposes nothing generic: no invoke, send, on or raw channel access anywhere', () => {
    const names = new Set<string>(Object.keys(api));
    for (const domain of Object.values(api as unknown as Record<string, object>)) {
      for (const name of Object.keys(domain)) names.add(name);
    }
    for (const generic of [
      'invoke',
      'send',
      'sendSync',
      'on',
      'once',
      'removeListener',
      'ipcRenderer',
      'channel',
      'call',
    ]) {
      expect(names.has(generic), generic).toBe(false);
    }
  });

  it('is frozen, domain by domain', () => {
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.isFrozen(api.pendingTransactions)).toBe(true);
    expect(() => {
      (api as unknown as Record<string, unknown>)['invoke'] = () => undefined;
    }).toThrow(TypeError);
  });

  it('names domains and methods as the renderer uses them', () => {
    expect(typeof api.pendingTransactions.list).toBe('function');
    expect(typeof api.sync.onProgress).toBe('function');
    expect(typeof api.listener.onRequests).toBe('function');
    expect(typeof api.app.onOnlineStatus).toBe('function');
    expect(typeof api.credentials.onStatus).toBe('function');
  });
});

describe('calls', () => {
  it('go to the operation channel with the input, and resolve with the value', async () => {
    const { transport, invoke } = fakeTransport({ ok: true, value: { profiles: [], activeProfileId: null } });
    const api = buildLedgerdeskApi(transport);
    await expect(api.profiles.list()).resolves.toEqual({ profiles: [], activeProfileId: null });
    expect(invoke).toHaveBeenCalledWith('profiles.list', {});
    await api.pendingTransactions.list({ profileId: 'sandbox', accountId: 'acct_1', search: 'coffee' });
    expect(invoke).toHaveBeenLastCalledWith('pendingTransactions.list', {
      profileId: 'sandbox',
      accountId: 'acct_1',
      search: 'coffee',
    });
  });

  it('reject with the plain error shape (which survives contextBridge whole), marked as ours', async () => {
    const error = { code: 'offline', message: 'The bank cannot be reached.', retryable: true, action: 'Try later.' };
    const api = buildLedgerdeskApi(fakeTransport({ ok: false, error }).transport);
    const reason: unknown = await api.sync.status().catch((caught: unknown) => caught);
    expect(reason).toEqual({ name: 'LedgerdeskError', ...error });
    expect(reason).not.toBeInstanceOf(Error);
    expect(isLedgerdeskError(reason)).toBe(true);
    expect(errorMessageOf(reason)).toBe('The bank cannot be reached.');
    expect(Object.getPrototypeOf(reason)).toBe(Object.prototype);
  });

  it.each([undefined, null, 'ok', { ok: 'yes' }, { ok: false }, { ok: false, error: 'bad' }])(
    'turn an unreadable answer (%s) into an internal error',
    async (answer) => {
      const api = buildLedgerdeskApi(fakeTransport(answer).transport);
      const reason: unknown = await api.app.info().catch((caught: unknown) => caught);
      expect(isLedgerdeskError(reason)).toBe(true);
      if (isLedgerdeskError(reason)) expect(reason.code).toBe('internal');
    },
  );

  it('turn a failing transport into a retryable error, without its message', async () => {
    const transport: BridgeTransport = {
      invoke: () => Promise.reject(new Error("Error invoking remote method 'app.info': secret detail")),
      on: () => () => undefined,
    };
    const reason: unknown = await buildLedgerdeskApi(transport)
      .app.info()
      .catch((caught: unknown) => caught);
    expect(isLedgerdeskError(reason)).toBe(true);
    if (isLedgerdeskError(reason)) {
      expect(reason.retryable).toBe(true);
      expect(reason.message).not.toContain('secret detail');
    }
  });
});

describe('events', () => {
  it('listeners get the payload only, never the event object or other arguments', () => {
    const { transport } = fakeTransport(NULL_ANSWER);
    const api = buildLedgerdeskApi(transport);
    const listener = vi.fn();
    api.sync.onProgress(listener);
    const payload = {
      jobId: 'j1',
      kind: 'webhooks',
      key: 'webhooks',
      fetched: 1,
      written: 1,
      ratePerSecond: 1,
      etaSeconds: null,
      state: 'done',
    };
    transport.emit(eventChannel('sync', 'progress'), payload, { sender: 'the event object' });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener.mock.calls[0]).toEqual([payload]);
  });

  it('unsubscribe stops delivery, and is safe to call twice', () => {
    const { transport, listeners } = fakeTransport(NULL_ANSWER);
    const api = buildLedgerdeskApi(transport);
    const listener = vi.fn();
    const off = api.listener.onRequests(listener);
    off();
    off();
    transport.emit(eventChannel('listener', 'requests'), { requests: [], omitted: 0 });
    expect(listener).not.toHaveBeenCalled();
    expect(listeners.get(eventChannel('listener', 'requests'))?.size).toBe(0);
  });

  it('refuses a listener that is not a function', () => {
    const api = buildLedgerdeskApi(fakeTransport(NULL_ANSWER).transport);
    expect(() => api.app.onOnlineStatus('not a function' as never)).toThrow(TypeError);
  });
});

describe('the bridge on the real router core', () => {
  it('a call crosses and comes back typed; a refused one rejects with the reason', async () => {
    const rows = [samplePendingTransaction()];
    const { router } = routerWith({
      pendingTransactions: {
        list: () => ({ rows: rows, nextCursor: 'c2', asOf: null, source: 'cache' as const }),
      },
    });
    const api = buildLedgerdeskApi({
      invoke: (channel, input) => router.dispatch(trustedSender, channel, input),
      on: () => () => undefined,
    });
    const listed = await api.pendingTransactions.list({ profileId: 'sandbox', accountId: 'acct_1' });
    expect(listed.rows[0]?.amount).toBe('-12.50');
    expect(listed.nextCursor).toBe('c2');
    const refused: unknown = await api.pendingTransactions
      .list({ profileId: 'sandbox', accountId: 'acct_1', limit: 0 })
      .catch((caught: unknown) => caught);
    expect(isLedgerdeskError(refused) && refused.field).toBe('limit');
    const missing: unknown = await api.listener.start().catch((caught: unknown) => caught);
    expect(isLedgerdeskError(missing) && missing.code).toBe('not_available');
  });
});
