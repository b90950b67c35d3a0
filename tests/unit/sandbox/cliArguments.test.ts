import { describe, expect, it } from 'vitest';
import { parseCliArguments } from '../../../src/sandbox/cliArguments.ts';

describe('sandbox command line', () => {
  it('reads every flag into SandboxOptions', () => {
    const parsed = parseCliArguments([
      '--port',
      '0',
      '--host',
      '0.0.0.0',
      '--data',
      ':memory:',
      '--seed',
      '5',
      '--accounts',
      '2',
      '--pending-per-account',
      '1000',
      '--key-id',
      'k',
      '--key-secret',
      'secretsecret',
      '--retry-base-ms',
      '5',
      '--retry-cap-ms',
      '80',
      '--error-threshold',
      '3',
      '--error-window-ms',
      '1000',
      '--smart-retries',
      'off',
      '--delivery-timeout-ms',
      '250',
      '--json',
    ]);
    expect(parsed).toEqual({
      json: true,
      quiet: false,
      help: false,
      options: {
        port: 0,
        host: '0.0.0.0',
        dataFile: ':memory:',
        seed: 5,
        accounts: 2,
        pendingTransactionsPerAccount: 1000,
        keyId: 'k',
        keySecret: 'secretsecret',
        retryBaseMs: 5,
        retryCapMs: 80,
        errorThreshold: 3,
        errorWindowMs: 1000,
        smartRetries: false,
        deliveryTimeoutMs: 250,
      },
    });
  });

  it("reads --lean: the real service's shapes", () => {
    expect(parseCliArguments(['--lean', '--json'])).toEqual({
      json: true,
      quiet: false,
      help: false,
      options: { lean: true },
    });
    expect(parseCliArguments([]).options.lean).toBeUndefined();
    expect(() => parseCliArguments(['--lean=yes'])).toThrow('--lean takes no value.');
  });

  it('reads --allow-host and --allow-origin, repeatable, normalized, and refuses bad ones', () => {
    const { options } = parseCliArguments([
      '--allow-host',
      'Bank.Tunnel.Example',
      '--allow-host=[::1]:8443',
      '--allow-origin',
      'http://LOCALHOST:5173',
    ]);
    expect(options.allowedHosts).toEqual(['bank.tunnel.example', '[::1]:8443']);
    expect(options.allowedOrigins).toEqual(['http://localhost:5173']);
    expect(() => parseCliArguments(['--allow-origin', 'http://x.example/path'])).toThrow(
      /--allow-origin: "http:\/\/x\.example\/path" is not an origin/,
    );
    expect(() => parseCliArguments(['--allow-host', 'a b'])).toThrow(/--allow-host: "a b" is not a host name/);
  });

  it('accepts --flag=value and defaults to loopback with nothing said', () => {
    expect(parseCliArguments(['--port=8080', '--smart-retries=on']).options).toEqual({
      port: 8080,
      smartRetries: true,
    });
    expect(parseCliArguments([])).toEqual({ options: {}, json: false, quiet: false, help: false });
    expect(parseCliArguments(['--quiet', '--json'])).toMatchObject({ json: true, quiet: true });
  });

  it('refuses unknown flags, missing values, bad numbers and half a key', () => {
    expect(() => parseCliArguments(['--bogus'])).toThrow(/Unknown option "--bogus"/);
    expect(() => parseCliArguments(['--port'])).toThrow(/--port needs a value/);
    expect(() => parseCliArguments(['--port', '--json'])).toThrow(/--port needs a value/);
    expect(() => parseCliArguments(['--seed', '-1'])).toThrow(/needs a value|whole number/);
    expect(() => parseCliArguments(['--retry-base-ms', '1.5'])).toThrow(/whole number/);
    expect(() => parseCliArguments(['--smart-retries', 'maybe'])).toThrow(/on or off/);
    expect(() => parseCliArguments(['--key-id', 'k'])).toThrow(/go together/);
  });
});
