/** `npm run listen -- --register --profile NAME --event E …|--all-events`, and `ledger webhooks …`: what they read, and their mistakes. */
import { describe, expect, it } from 'vitest';
import { readListenArguments } from '../../../src/main/cli/listen/cliArguments.ts';
import { parseLedgerArguments } from '../../../src/main/cli/ledger/cliArguments.ts';
import { UsageError } from '../../../src/main/cli/common/usageError.ts';

describe('listen --register', () => {
  it('reads several events, deduplicated, with the Basic credentials and the profile', () => {
    const options = readListenArguments(
      [
        '--basic',
        'bank:s3cret',
        '--register',
        '--profile',
        'Sandbox',
        '--event',
        'ach.update',
        '--event',
        'account.update',
        '--event',
        'ach.update',
      ],
      {},
    );
    expect(options).toMatchObject({
      profile: 'Sandbox',
      basic: { user: 'bank', secret: 's3cret' },
      register: { events: ['ach.update', 'account.update'], publicUrl: null },
      rule: null,
    });
  });

  it('reads --all-events and a tunnel address; a rule with --register applies to the registered events', () => {
    expect(
      readListenArguments(
        ['--basic', 'b:s', '--register', '--profile', 'P', '--all-events', '--public-url', 'https://t.example'],
        {},
      ),
    ).toMatchObject({ register: { events: 'all', publicUrl: 'https://t.example' } });
    const withRule = readListenArguments(
      [
        '--basic',
        'b:s',
        '--register',
        '--profile',
        'P',
        '--event',
        'ach.update',
        '--event',
        'ach.create',
        '--respond',
        '500',
        '--times',
        '3',
      ],
      {},
    );
    expect(withRule.rule).toEqual({ id: 'cli', action: { kind: 'fail_times', times: 3, status: 500 } });
    const scoped = readListenArguments(
      ['--basic', 'b:s', '--register', '--profile', 'P', '--event', 'ach.update', '--respond', '500'],
      {},
    );
    expect(scoped.rule).toEqual({ id: 'cli', event: 'ach.update', action: { kind: 'status', status: 500 } });
  });

  it('a --profile without --register only hydrates', () => {
    expect(readListenArguments(['--profile', 'Sandbox'], {})).toMatchObject({ profile: 'Sandbox', register: null });
  });

  it.each([
    [['--register', '--basic', 'b:s', '--event', 'ach.update'], /--register needs --profile NAME/],
    [['--register', '--profile', 'P', '--event', 'ach.update'], /--register needs --basic USER:SECRET/],
    [['--register', '--profile', 'P', '--basic', 'b:s'], /--event E \(repeatable\) or --all-events, one of the two/],
    [['--register', '--profile', 'P', '--basic', 'b:s', '--event', 'ach.update', '--all-events'], /one of the two/],
    [['--register', '--profile', 'P', '--basic', 'b:s', '--event', 'ach'], /--event ach: must be an event name/],
    [
      ['--register', '--profile', 'P', '--basic', 'b:s', '--all-events', '--public-url', 'ftp://x'],
      /--public-url must be an http/,
    ],
    [['--all-events'], /go with --register/],
    [['--event', 'ach.update', '--event', 'ach.create', '--respond', '500'], /--event is given once/],
    [['--event', 'ach.update'], /--event scopes a rule/],
  ])('refuses %j', (argv, message) => {
    expect(() => readListenArguments(argv, {})).toThrow(UsageError);
    expect(() => readListenArguments(argv, {})).toThrow(message);
  });
});

describe('ledger webhooks', () => {
  it('takes --event several times for add and list, once elsewhere', () => {
    expect(
      parseLedgerArguments([
        'webhooks',
        'add',
        '--profile',
        'P',
        '--url',
        'http://x.test/',
        '--event',
        'a.update',
        '--event',
        'b.update',
      ]).options.event,
    ).toEqual(['a.update', 'b.update']);
    expect(parseLedgerArguments(['list', 'webhooks', '--profile', 'P', '--event', 'a.update']).options.event).toBe(
      'a.update',
    );
    expect(() =>
      parseLedgerArguments(['list', 'webhooks', '--profile', 'P', '--event', 'a.update', '--event', 'b.update']),
    ).toThrow(new UsageError('`list webhooks` takes one --event.'));
  });

  it('reads update ID and remove ID|--url', () => {
    expect(
      parseLedgerArguments(['webhooks', 'update', 'wh_1', '--profile', 'P', '--status', 'disabled']),
    ).toMatchObject({
      command: 'webhooks update',
      name: 'wh_1',
    });
    expect(parseLedgerArguments(['webhooks', 'remove', '--url', 'http://x.test/', '--profile', 'P'])).toMatchObject({
      command: 'webhooks remove',
      name: null,
    });
    expect(() => parseLedgerArguments(['webhooks', 'add', '--profile', 'P', '--event', 'a.update'])).toThrow(
      '`webhooks add` needs --url.',
    );
  });
});
