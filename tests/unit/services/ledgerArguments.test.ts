/**
 * The `ledger` grammar where values start with a dash: refs and cursors are base64url (a
 * pending transaction's ref is `-…` about once in 64), amounts may be negative.
 */
import { describe, expect, it } from 'vitest';
import { joinDashedValues, parseLedgerArguments } from '../../../src/main/cli/ledger/cliArguments.ts';

describe('values that start with a dash', () => {
  it('are taken as the value of the option before them', () => {
    const parsed = parseLedgerArguments([
      'review',
      'set',
      '--profile',
      'Sandbox',
      '--kind',
      'pending-transaction',
      '--ref',
      '-Xb3kQ9',
      '--ref',
      '--7aZ',
      '--ref',
      'plain',
      '--disposition',
      'flagged',
      '--note',
      '- a dash first',
    ]);
    expect(parsed.options.ref).toEqual(['-Xb3kQ9', '--7aZ', 'plain']);
    expect(parsed.options.note).toBe('- a dash first');
    const rule = parseLedgerArguments([
      'rules',
      'add',
      'Debits',
      '--profile',
      'S',
      '--kind',
      'pending-transaction',
      '--amount-beyond',
      '-400.00',
    ]);
    expect(rule.options['amount-beyond']).toBe('-400.00');
  });

  it('never swallow one of our own options, nor a flag’s next word', () => {
    expect(joinDashedValues(['--note', '--json'])).toEqual(['--note', '--json']);
    expect(joinDashedValues(['--note', '--no-production'])).toEqual(['--note', '--no-production']);
    expect(joinDashedValues(['--note', '-h'])).toEqual(['--note', '-h']);
    expect(joinDashedValues(['--json', '-x'])).toEqual(['--json', '-x']);
    expect(joinDashedValues(['--ref=-a', '--ref', '-b'])).toEqual(['--ref=-a', '--ref=-b']);
    // An option left without its value is still a usage error naming it.
    expect(() =>
      parseLedgerArguments(['review', 'set', '--profile', 'S', '--kind', 'application', '--note', '--json']),
    ).toThrow(/--note/);
  });
});
