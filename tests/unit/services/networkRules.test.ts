/**
 * Issue 37's rules that need no server: NO_PROXY as curl and npm read it, the environment's
 * proxy variables (either case, user:password@), a PAC answer, a profile's proxy address, a
 * 429 that names an account limit, the retry policy that never retries one, and the address
 * of an ngrok tunnel.
 */
import { describe, expect, it } from 'vitest';
import { accountLimitOf } from '../../../src/main/services/bank/accountLimit.ts';
import { decideRetry, DEFAULT_RETRY_POLICY } from '../../../src/main/services/bank/retryPolicy.ts';
import { environmentRoute, ProxySettingProblem } from '../../../src/main/services/http/environmentProxy.ts';
import { profilePolicy } from '../../../src/main/services/http/networkPolicy.ts';
import { NoProxy } from '../../../src/main/services/http/noProxy.ts';
import { pacEntries } from '../../../src/main/services/http/systemProxy.ts';
import { portOfAddr } from '../../../src/main/services/listener/ngrokAgent.ts';
import { proxyUrl, proxyUrlProblem } from '../../../src/shared/profiles/networkFields.ts';

describe('NO_PROXY', () => {
  const noProxy = new NoProxy(
    'localhost, .corp.example, *.internal.example, 10.0.0.0/8, 192.168.1.5:8443, [::1], fd00::/8',
  );
  it.each([
    ['localhost', 443, true],
    ['api.corp.example', 443, true],
    ['corp.example', 443, true],
    ['notcorp.example', 443, false],
    ['a.b.internal.example', 80, true],
    ['10.20.30.40', 443, true],
    ['11.0.0.1', 443, false],
    ['192.168.1.5', 8443, true],
    ['192.168.1.5', 443, false],
    ['[::1]', 443, true],
    ['[fd12::3]', 443, true],
    ['127.0.0.1', 443, false],
    ['API.CORP.EXAMPLE', 443, true],
  ])('%s:%d direct: %s', (host, port, direct) => {
    expect(noProxy.matches(host, port)).toBe(direct);
  });

  it('takes * for everything, and nothing for an empty list', () => {
    expect(new NoProxy('*').matches('anything.example', 443)).toBe(true);
    expect(new NoProxy('').empty).toBe(true);
    expect(new NoProxy(undefined).matches('localhost', 80)).toBe(false);
  });
});

describe('the environment’s proxy', () => {
  const target = new URL('https://api.bank.example/account');

  it('reads HTTPS_PROXY for https://, HTTP_PROXY for http://, lower case first, ALL_PROXY last', () => {
    expect(
      environmentRoute(target, { HTTPS_PROXY: 'http://upper:3128', https_proxy: 'http://lower:3128' }),
    ).toMatchObject({
      kind: 'proxy',
      host: 'lower',
      port: 3128,
      source: 'environment',
    });
    expect(
      environmentRoute(new URL('http://127.0.0.1:4010/'), { HTTPS_PROXY: 'http://s:1', HTTP_PROXY: 'h:2' }),
    ).toMatchObject({
      host: 'h',
      port: 2,
    });
    expect(environmentRoute(target, { ALL_PROXY: 'http://all:8080' })).toMatchObject({ host: 'all', port: 8080 });
    expect(environmentRoute(target, {})).toEqual({ kind: 'direct' });
  });

  it('honours user:password@ (percent-decoded) as curl and npm do, and NO_PROXY', () => {
    expect(environmentRoute(target, { HTTPS_PROXY: 'http://al%40ice:p%3Ass@proxy.corp:8080' })).toMatchObject({
      credentials: { user: 'al@ice', password: 'p:ss' },
    });
    expect(environmentRoute(target, { HTTPS_PROXY: 'http://proxy:8080', NO_PROXY: 'bank.example' })).toEqual({
      kind: 'direct',
    });
  });

  it('says a proxy it does not speak, instead of ignoring it', () => {
    expect(() => environmentRoute(target, { HTTPS_PROXY: 'socks5://proxy:1080' })).toThrow(ProxySettingProblem);
    expect(() => environmentRoute(target, { HTTPS_PROXY: 'https://proxy:443' })).toThrow(/does not speak/);
  });
});

describe('the system’s proxy (a PAC answer)', () => {
  it('reads DIRECT and PROXY entries, in order', () => {
    expect(pacEntries('PROXY proxy.corp:8080; DIRECT')).toEqual([
      { kind: 'proxy', host: 'proxy.corp', port: 8080 },
      { kind: 'direct' },
    ]);
    expect(pacEntries('SOCKS5 s:1080')).toEqual([{ kind: 'other', text: 'SOCKS5 s:1080' }]);
    expect(pacEntries('')).toEqual([]);
  });

  it('takes the first usable entry, with the profile’s proxy login', async () => {
    const policy = profilePolicy(
      { proxy: { mode: 'system', user: 'alice' }, caFile: null },
      {
        environment: { HTTPS_PROXY: 'http://ignored:1' },
        systemResolver: { resolve: () => Promise.resolve('SOCKS5 s:1; PROXY pac.corp:3128; DIRECT') },
        proxyPassword: () => Promise.resolve('secret'),
      },
    );
    expect(await policy.routeFor(new URL('https://api.bank.example'))).toEqual({
      kind: 'proxy',
      host: 'pac.corp',
      port: 3128,
      credentials: { user: 'alice', password: 'secret' },
      source: 'system',
    });
  });

  it('reads the environment where there is no Chromium (the command line, web mode)', async () => {
    const policy = profilePolicy(
      { proxy: { mode: 'system' }, caFile: null },
      { environment: { https_proxy: 'proxy:3128' }, systemResolver: null, proxyPassword: () => Promise.resolve(null) },
    );
    expect(await policy.routeFor(new URL('https://api.bank.example'))).toMatchObject({ host: 'proxy', port: 3128 });
  });

  it('goes direct for none, whatever the environment says', async () => {
    const policy = profilePolicy(
      { proxy: { mode: 'none' }, caFile: null },
      { environment: { HTTPS_PROXY: 'http://p:1' }, systemResolver: null, proxyPassword: () => Promise.resolve(null) },
    );
    expect(await policy.routeFor(new URL('https://api.bank.example'))).toEqual({ kind: 'direct' });
  });
});

describe('a profile’s proxy address', () => {
  it.each([
    ['http://proxy.example.com:3128', null],
    ['proxy.example.com:3128', null],
    ['https://proxy.example.com', /must be an http:\/\/ proxy/],
    ['socks5://proxy:1080', /does not speak/],
    ['http://alice:pw@proxy:3128', /must not contain a user or password/],
    ['http://proxy:3128/path', /without a path/],
    ['', /must name the proxy/],
  ])('%s', (text, problem) => {
    const found = proxyUrlProblem(text);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });

  it('is kept as http://host:port', () => {
    expect(proxyUrl.parse(' proxy.example.com:3128 ')).toBe('http://proxy.example.com:3128');
  });
});

describe('a 429 that names an account limit', () => {
  it.each([
    ['ACH limit exceeded: account acct_1 may move at most $100.00 by ACH a day.', true],
    ['Daily transfer limit exceeded for this account.', true],
    ['Too many requests for this API key: try again in 1 s.', false],
    ['Rate limit exceeded.', false],
    ['Slow down.', false],
  ])('%s → a limit: %s', (message, limit) => {
    expect(accountLimitOf(message) !== null).toBe(limit);
  });

  it('is never retried, whatever Retry-After says', () => {
    expect(
      decideRetry(DEFAULT_RETRY_POLICY, { type: 'status', status: 429, retryAfterMs: 1000, final: true }, 1, true),
    ).toEqual({ retry: false });
    expect(
      decideRetry(DEFAULT_RETRY_POLICY, { type: 'status', status: 429, retryAfterMs: 1000 }, 1, true),
    ).toMatchObject({
      retry: true,
    });
  });

  it('nor is a proxy’s refusal or an untrusted certificate, though nothing was sent', () => {
    expect(
      decideRetry(DEFAULT_RETRY_POLICY, { type: 'network', code: '407', neverSent: true, final: true }, 1, false),
    ).toEqual({ retry: false });
  });
});

describe('an ngrok tunnel’s local address', () => {
  it.each([
    ['http://localhost:4880', 4880],
    ['localhost:4880', 4880],
    ['127.0.0.1:4880', 4880],
    ['4880', 4880],
    ['https://localhost', 443],
  ])('%s → %d', (addr, port) => {
    expect(portOfAddr(addr)).toBe(port);
  });
});
