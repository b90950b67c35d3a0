/**
 * The router core refuses every call it must refuse before the handler is reached, checks
 * what handlers answer against the contract, maps every error to the one shape, and never
 * lets a secret out.
 */
import { describe, expect, it, vi } from 'vitest';
import { ipcError, type IpcResult } from '../../../src/shared/ipc/errors.ts';
import { OPERATIONS_BY_CHANNEL } from '../../../src/shared/ipc/contract.ts';
import { samplePendingTransaction } from '../shared/sample.ts';
import { APP_ORIGIN, listInput, OWN_WINDOW, routerWith, trustedSender } from './fixtures.ts';

function rawPage(rows: unknown[] = [samplePendingTransaction()]) {
  return { rows, nextCursor: null, asOf: '2024-03-15T02:11:09Z', source: 'cache' as const };
}

/** Typed loosely on purpose: some tests hand the router rows of the wrong shape. */
function page(rows?: unknown[]): never {
  return rawPage(rows) as never;
}

function spyRouter() {
  const list = vi.fn(() => page());
  const { router, logged } = routerWith({ pendingTransactions: { list } });
  return { router, list, logged };
}

function expectError(result: IpcResult, code: string) {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(ipcError.safeParse(result.error).success).toBe(true);
  expect(result.error.code).toBe(code);
  expect(result.error.message).not.toMatch(/\n\s+at /);
}

describe('a trusted call', () => {
  it('reaches the handler with the parsed input (defaults applied) and answers its output', async () => {
    const { router, list } = spyRouter();
    const result = await router.dispatch(trustedSender, 'pendingTransactions.list', listInput());
    expect(result.ok).toBe(true);
    expect(list).toHaveBeenCalledTimes(1);
    expect(list.mock.calls[0]).toEqual([
      { ...listInput(), limit: 100 },
      { webContentsId: OWN_WINDOW, channel: 'pendingTransactions.list' },
    ]);
    if (result.ok) expect(result.value).toEqual(page());
  });

  it('registers exactly the channels of the contract', () => {
    const { router } = spyRouter();
    expect([...router.channels].sort()).toEqual([...OPERATIONS_BY_CHANNEL.keys()].sort());
  });
});

describe('senders other than our own window main frame and origin are refused', () => {
  it.each([
    ['a foreign webContents', { ...trustedSender, webContentsId: 99 }],
    ['a sub-frame of our window', { ...trustedSender, isMainFrame: false }],
    ['another origin', { ...trustedSender, frameUrl: 'https://evil.example/index.html' }],
    ['another app:// host', { ...trustedSender, frameUrl: 'app://evil/index.html' }],
    ['a file:// page', { ...trustedSender, frameUrl: 'file:///tmp/index.html' }],
    ['a look-alike origin', { ...trustedSender, frameUrl: 'app://ledgerdesk.evil.example/' }],
    ['an unparseable URL', { ...trustedSender, frameUrl: 'not a url' }],
    ['a frame that is gone', { ...trustedSender, frameUrl: null }],
    ['about:blank', { ...trustedSender, frameUrl: 'about:blank' }],
    ['a data: URL', { ...trustedSender, frameUrl: 'data:text/html,<script>1</script>' }],
  ])('%s', async (_name, sender) => {
    const { router, list, logged } = spyRouter();
    const result = await router.dispatch(sender, 'pendingTransactions.list', listInput());
    expectError(result, 'forbidden');
    expect(list).not.toHaveBeenCalled();
    expect(logged.join('\n')).toContain('refused a call');
  });

  it('checks the sender before the channel, so a foreign sender learns nothing about channels', async () => {
    const { router } = spyRouter();
    const result = await router.dispatch({ ...trustedSender, webContentsId: 99 }, 'no.such', {});
    expectError(result, 'forbidden');
  });

  it('accepts the dev server origin only when the policy lists it', async () => {
    const sender = { ...trustedSender, frameUrl: 'http://localhost:5173/' };
    const list = vi.fn(() => page());
    const strict = routerWith({ pendingTransactions: { list } }).router;
    expectError(await strict.dispatch(sender, 'pendingTransactions.list', listInput()), 'forbidden');
    const dev = routerWith(
      { pendingTransactions: { list } },
      {
        senderPolicy: { isOwnWindow: (id) => id === OWN_WINDOW, allowedOrigins: [APP_ORIGIN, 'http://localhost:5173'] },
      },
    ).router;
    expect((await dev.dispatch(sender, 'pendingTransactions.list', listInput())).ok).toBe(true);
  });
});

describe('unknown channels are refused', () => {
  it.each([
    'no.such',
    'pendingTransactions',
    'pendingTransactions.drop',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'pendingTransactions.list ',
    'PENDINGTRANSACTIONS.LIST',
    'event:sync.progress',
    '',
    42,
    null,
    undefined,
    { channel: 'x' },
  ])('%s', async (channel) => {
    const { router, list } = spyRouter();
    const result = await router.dispatch(trustedSender, channel, listInput());
    expectError(result, 'unknown_channel');
    expect(list).not.toHaveBeenCalled();
  });
});

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let index = 0; index < depth; index += 1) value = { inner: value };
  return value;
}

function withGetter(): Record<string, unknown> {
  const input = listInput();
  Object.defineProperty(input, 'search', { enumerable: true, get: () => 'sneaky' });
  return input;
}

class Pretender {
  profileId = 'sandbox';
  accountId = 'acct_1';
}

describe('malformed input of every kind is refused before the handler', () => {
  const { profileId: _profileId, ...withoutProfile } = listInput();
  it.each([
    ['no input at all', undefined],
    ['null', null],
    ['a string', 'pendingTransactions'],
    ['a number', 42],
    ['an array', [listInput()]],
    ['a wrong type', { ...listInput(), profileId: 12 }],
    ['a missing field', withoutProfile],
    ['an extra field', { ...listInput(), sql: 'DROP TABLE rows' }],
    ['an empty id', { ...listInput(), accountId: '' }],
    ['an id with spaces', { ...listInput(), accountId: 'acct 1' }],
    ['a huge string in a field', { ...listInput(), accountId: 'a'.repeat(5_000) }],
    ['a huge search', { ...listInput(), search: 'x'.repeat(201) }],
    ['a string past the total limit', { ...listInput(), search: 'x'.repeat(3 * 1024 * 1024) }],
    [
      'a __proto__ key',
      JSON.parse('{"profileId":"sandbox","accountId":"acct_1","__proto__":{"polluted":true}}') as unknown,
    ],
    ['a nested __proto__ key', { ...listInput(), sort: JSON.parse('{"__proto__":{"polluted":true}}') as unknown }],
    ['a constructor key', { ...listInput(), constructor: { prototype: { polluted: true } } }],
    ['NaN', { ...listInput(), limit: Number.NaN }],
    ['Infinity', { ...listInput(), limit: Number.POSITIVE_INFINITY }],
    ['a fractional limit', { ...listInput(), limit: 1.5 }],
    ['a zero limit', { ...listInput(), limit: 0 }],
    ['a limit over the maximum', { ...listInput(), limit: 1001 }],
    ['a negative limit', { ...listInput(), limit: -1 }],
    ['a numeric string limit', { ...listInput(), limit: '100' }],
    ['a function', { ...listInput(), search: () => 'x' }],
    ['a symbol value', { ...listInput(), search: Symbol('x') }],
    ['a symbol key', { ...listInput(), [Symbol('x')]: 1 }],
    ['a bigint', { ...listInput(), limit: 10n }],
    ['a Date', { ...listInput(), fromDate: new Date('2024-01-01') }],
    ['a class instance', new Pretender()],
    ['a Map', new Map(Object.entries(listInput()))],
    ['a getter', withGetter()],
    ['deep nesting', { ...listInput(), search: nested(100) }],
    ['bytes where text is expected', { ...listInput(), search: new Uint8Array(4) }],
    ['an impossible date', { ...listInput(), fromDate: '2024-02-30' }],
    ['a date in another format', { ...listInput(), fromDate: '14/03/2024' }],
    ['an unknown enum value', { ...listInput(), type: 'bogus' }],
    ['an enum value of the wrong case', { ...listInput(), type: 'CHARGE' }],
    ['a boolean for a string', { ...listInput(), search: true }],
    ['an array for a string', { ...listInput(), accountId: ['acct_1'] }],
    ['an object for a string', { ...listInput(), accountId: { toString: 'acct_1' } }],
  ])('%s', async (_name, input) => {
    const { router, list } = spyRouter();
    const result = await router.dispatch(trustedSender, 'pendingTransactions.list', input);
    expectError(result, 'invalid_input');
    expect(list).not.toHaveBeenCalled();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('names the offending field and says what it must be', async () => {
    const { router } = spyRouter();
    const result = await router.dispatch(trustedSender, 'pendingTransactions.list', { ...listInput(), limit: 5000 });
    expectError(result, 'invalid_input');
    if (!result.ok) {
      expect(result.error.field).toBe('limit');
      expect(result.error.message).toBe('limit: must be a whole number from 1 to 1000');
    }
  });

  it('refuses a write against Production without the literal confirmation', async () => {
    const create = vi.fn();
    const { router } = routerWith({ webhooks: { create } });
    const request = { event: 'ach.update', url: 'https://hooks.example/ach' };
    for (const confirmProduction of ['true', 1, false, 'yes']) {
      const result = await router.dispatch(trustedSender, 'webhooks.create', {
        profileId: 'prod',
        request,
        confirmProduction,
      });
      expectError(result, 'invalid_input');
    }
    expect(create).not.toHaveBeenCalled();
  });
});

describe('answers are checked against the contract', () => {
  it.each([
    ['a missing field', { rows: [], asOf: null, source: 'cache' }],
    ['a wrong source', { ...rawPage(), source: 'bank' }],
    ['a row of the wrong shape', page([{ amount: 12.5 }])],
    ['a float amount', page([{ ...samplePendingTransaction(), amount: -12.5 }])],
    ['nothing at all', undefined],
    ['a string', 'ok'],
  ])('a handler answering %s gives invalid_output, not the answer', async (_name, answer) => {
    const { router, logged } = routerWith({ pendingTransactions: { list: () => answer as never } });
    const result = await router.dispatch(trustedSender, 'pendingTransactions.list', listInput());
    expectError(result, 'invalid_output');
    expect(logged.join('\n')).toContain('does not match the contract');
  });

  it('strips fields the contract does not know from its own wrappers', async () => {
    const { router } = routerWith({
      pendingTransactions: { list: () => ({ ...rawPage(), internalPath: '/home/x/cache.db' }) as never },
    });
    const result = await router.dispatch(trustedSender, 'pendingTransactions.list', listInput());
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value).not.toHaveProperty('internalPath');
  });
});

describe('secrets never leave', () => {
  const secret = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';

  it('redacts a known secret, a secret-named field and an Authorization value planted in a reply', async () => {
    const planted = {
      ...samplePendingTransaction(),
      desc: `charge for key ${secret}`,
      // Bank text is never matched against words (review N11); a credential echoed in an error is.
      summary: 'Basic Checking monthly fee',
      error: 'sent with Authorization: Basic dXNlcjpzM2NyZXQ=',
      apiKey: 'another-secret-value',
      nested: { basic_secret: 'hunter2hunter2', token: 'eyJhbGciOiJIUzI1NiJ9.e30.sig' },
    };
    const { router, logged } = routerWith(
      { pendingTransactions: { list: () => page([planted]) } },
      { knownSecrets: () => [secret] },
    );
    const result = await router.dispatch(trustedSender, 'pendingTransactions.list', listInput());
    expect(result.ok).toBe(true);
    const text = JSON.stringify(result);
    for (const leaked of [
      secret,
      'dXNlcjpzM2NyZXQ=',
      'another-secret-value',
      'hunter2hunter2',
      'eyJhbGciOiJIUzI1NiJ9',
    ]) {
      expect(text).not.toContain(leaked);
    }
    expect(text).toContain('[redacted]');
    expect(text).toContain('Basic Checking monthly fee');
    expect(logged.join('\n')).toContain('withheld');
  });

  it('keeps a secret out of error messages, and never sends a stack', async () => {
    const { router, logged } = routerWith(
      {
        pendingTransactions: {
          list: () => {
            throw new Error(`request with ${secret} failed\n    at Object.<anonymous> (/app/main.js:1:1)`);
          },
        },
      },
      { knownSecrets: () => [secret] },
    );
    const result = await router.dispatch(trustedSender, 'pendingTransactions.list', listInput());
    expectError(result, 'internal');
    const text = JSON.stringify(result);
    expect(text).not.toContain(secret);
    expect(text).not.toContain('main.js');
    expect(logged.join('\n')).not.toContain(secret);
  });

  it('refuses a webhook answer that carries a basic_secret (the contract says it is always null)', async () => {
    const webhook = {
      id: 'wh_1',
      event: 'ach.update',
      url: 'https://hooks.example/',
      status: 'enabled',
      error: null,
      basic_user: 'bank',
      basic_secret: 'hunter2hunter2',
      userdata: null,
      created_at: '2024-03-15T02:11:09Z',
      updated_at: '2024-03-15T02:11:09Z',
    };
    const { router } = routerWith({ webhooks: { create: () => webhook as never } });
    const result = await router.dispatch(trustedSender, 'webhooks.create', {
      profileId: 'sandbox',
      request: { event: 'ach.update', url: 'https://hooks.example/' },
    });
    expectError(result, 'invalid_output');
    expect(JSON.stringify(result)).not.toContain('hunter2');
  });
});

describe('every error becomes the one shape', () => {
  it.each([
    [
      'a service error with a contract code',
      Object.assign(new Error('Profile Acme needs confirmation'), {
        code: 'confirmation_required',
        field: 'confirmProduction',
        action: 'Confirm the change',
      }),
      'confirmation_required',
    ],
    [
      'a bank 401',
      Object.assign(new Error('Invalid API key'), { status: 401, action: 'Check the API key of profile Acme' }),
      'unauthorized',
    ],
    ['a bank 404', Object.assign(new Error('Invalid id'), { status: 404 }), 'not_found'],
    ['a bank 429', Object.assign(new Error('Slow down'), { status: 429 }), 'rate_limited'],
    ['a bank 502', Object.assign(new Error('Bank core offline'), { status: 502 }), 'bank_error'],
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      'offline',
    ],
    ['a full disk', Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }), 'storage_error'],
    ['a plain Error', new Error('boom'), 'internal'],
    ['a thrown string', 'boom', 'internal'],
    ['a thrown null', null, 'internal'],
    ['a thrown object with a bogus code', { code: 'DROP_TABLES', message: 'x' }, 'internal'],
  ])('%s', async (_name, thrown, code) => {
    const { router } = routerWith({
      pendingTransactions: {
        list: () => {
          // Services may throw anything: strings, null, plain objects.
          // eslint-disable-next-line @typescript-eslint/only-throw-error
          throw thrown;
        },
      },
    });
    const result = await router.dispatch(trustedSender, 'pendingTransactions.list', listInput());
    expectError(result, code);
    if (!result.ok) expect(result.error.message).toMatch(/[.!?…]$/);
  });

  it('keeps status, retryable, action and field of a bank error', async () => {
    const { router } = routerWith({
      pendingTransactions: {
        list: () =>
          Promise.reject(Object.assign(new Error('the bank core is offline'), { status: 503, action: 'try later' })),
      },
    });
    const result = await router.dispatch(trustedSender, 'pendingTransactions.list', listInput());
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'bank_error',
        message: 'The bank core is offline.',
        status: 503,
        retryable: true,
        action: 'Try later.',
      },
    });
  });

  it('answers not_available for an operation whose handler is missing', async () => {
    const { router } = routerWith({});
    const result = await router.dispatch(trustedSender, 'listener.start', {});
    expectError(result, 'not_available');
  });

  it('does not take an inherited property for a handler', async () => {
    const handlers = Object.create({ pendingTransactions: { list: () => page() } }) as Record<string, never>;
    const { router } = routerWith(handlers);
    expectError(await router.dispatch(trustedSender, 'pendingTransactions.list', listInput()), 'not_available');
  });
});
