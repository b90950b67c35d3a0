/** The command line of `npm run listen`, and its mistakes. */
import { describe, expect, it } from 'vitest';
import { readListenArguments } from '../../../src/main/cli/listen/cliArguments.ts';
import { UsageError } from '../../../src/main/cli/common/usageError.ts';

describe('readListenArguments', () => {
  it('reads the options of the issue', () => {
    const options = readListenArguments(
      [
        '--port',
        '4999',
        '--forward-to',
        'http://localhost:3000/hook',
        '--basic',
        'bank:s:e',
        '--respond',
        '503',
        '--times',
        '3',
        '--delay',
        '20',
        '--json',
      ],
      {},
    );
    expect(options).toMatchObject({
      port: 4999,
      forwardTo: 'http://localhost:3000/hook',
      basic: { user: 'bank', secret: 's:e' },
      rule: { id: 'cli', action: { kind: 'fail_times', times: 3, status: 503, delayMs: 20 } },
      json: true,
      listenerId: 'cli',
    });
  });

  it('turns each failing flag into its rule', () => {
    expect(readListenArguments(['--respond', '500'], {}).rule?.action).toEqual({ kind: 'status', status: 500 });
    expect(readListenArguments(['--delay', '100'], {}).rule?.action).toEqual({ kind: 'delay', delayMs: 100 });
    expect(readListenArguments(['--no-answer'], {}).rule?.action).toEqual({ kind: 'no_answer' });
    expect(readListenArguments(['--drop', '--event', 'ach.*'], {}).rule).toEqual({
      id: 'cli',
      event: 'ach.*',
      action: { kind: 'drop' },
    });
    expect(readListenArguments([], {}).rule).toBeNull();
  });

  it('reads the Basic pair from the environment when not given', () => {
    expect(readListenArguments([], { LEDGERDESK_LISTENER_BASIC: 'u:p' }).basic).toEqual({ user: 'u', secret: 'p' });
  });

  it('refuses mistakes with a sentence', () => {
    for (const argv of [
      ['--port', 'abc'],
      ['--port', '70000'],
      ['--respond', '99'],
      ['--times', '3'],
      ['--basic', 'nocolon'],
      ['--basic', ':secret'],
      ['--forward-to', 'localhost:3000'],
      ['--no-answer', '--drop'],
      ['--event', 'ach.update'],
      ['--unknown'],
      ['positional'],
      ['--allow-host', 'https://tunnel.example/'],
      ['--allow-origin', 'tunnel.example'],
    ]) {
      expect(() => readListenArguments(argv, {}), argv.join(' ')).toThrow(UsageError);
    }
  });

  it('reads --allow-host and --allow-origin, repeatable, normalized', () => {
    const read = readListenArguments(
      ['--allow-host', 'Abc.Ngrok.App', '--allow-host', '192.168.1.5:4880', '--allow-origin', 'HTTP://Localhost:5173'],
      {},
    );
    expect(read.allowedHosts).toEqual(['abc.ngrok.app', '192.168.1.5:4880']);
    expect(read.allowedOrigins).toEqual(['http://localhost:5173']);
    expect(readListenArguments([], {})).toMatchObject({ allowedHosts: [], allowedOrigins: [] });
  });
});
