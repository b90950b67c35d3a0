/**
 * Why the bank is offline, as the window says it (the Offline badge's name): the bank error's
 * sentence for people, never its developer message.
 */
import { describe, expect, it } from 'vitest';
import { BankError } from '../../../src/main/services/bank/bankError.ts';
import { ProfileNotReady } from '../../../src/main/services/bank/bankClients.ts';
import { reasonForPeople } from '../../../src/main/services/sync/connectivity.ts';

function unreachable(forPeople?: { message: string; action: string }): BankError {
  return new BankError({
    kind: 'unreachable',
    endpoint: 'GET /ping',
    profileName: 'Local sandbox',
    status: null,
    serverMessage: 'connect ECONNREFUSED 127.0.0.1:34057',
    retryable: true,
    remedy: 'Check your network connection.',
    attempts: 1,
    ...(forPeople === undefined ? {} : { forPeople }),
  });
}

describe('reasonForPeople', () => {
  it("says the bank error's sentence for people, with what to do", () => {
    const error = unreachable({
      message: 'The local sandbox bank is not running.',
      action: 'Restart it from Settings; cached data stays available.',
    });
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(reasonForPeople(error)).toBe(
      'The local sandbox bank is not running. Restart it from Settings; cached data stays available.',
    );
  });

  it('never passes on a developer message: a failure without a sentence for people gets a plain one', () => {
    for (const failure of [
      unreachable(),
      new Error('GET /ping: connect ECONNREFUSED 127.0.0.1:1'),
      'ETIMEDOUT',
      null,
    ]) {
      const reason = reasonForPeople(failure);
      expect(reason).toBe('The bank cannot be reached. Check your network connection, then try again.');
    }
  });

  it('keeps the sentence of a profile that cannot be asked yet', () => {
    expect(reasonForPeople(new ProfileNotReady('The embedded sandbox is not running.'))).toBe(
      'The embedded sandbox is not running.',
    );
  });
});
