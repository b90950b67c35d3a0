/** The services' error classes reach the window as the right contract codes, with their advice. */
import { describe, expect, it } from 'vitest';
import { toIpcError } from '../../../src/main/ipc/errorMapping.ts';
import { IpcFailure, translateServiceError } from '../../../src/main/ipc/serviceErrors.ts';
import { BankError, type BankErrorDetails } from '../../../src/main/services/bank/bankError.ts';
import { CacheError } from '../../../src/main/services/cache/cacheError.ts';
import { MissingCredentials } from '../../../src/main/services/credentials/credentials.ts';
import { KeychainUnavailable } from '../../../src/main/services/credentials/keyringSecretStore.ts';
import { ExposureRefusedError, PortTakenError } from '../../../src/main/services/listener/listenAddress.ts';
import { NothingToReplayError } from '../../../src/main/services/listener/replay.ts';
import {
  ProductionWriteNotConfirmed,
  ProfileNotFound,
  ProfileRefused,
} from '../../../src/main/services/profiles/profiles.ts';
import { RecordError } from '../../../src/main/services/record/recordError.ts';
import { ReviewProblem } from '../../../src/main/services/review/reviewProblem.ts';
import { SyncBusy } from '../../../src/main/services/sync/syncService.ts';
import { TeamProblem } from '../../../src/main/services/team/teamProblem.ts';
import { SchemaViolation } from '../../../src/shared/bank/index.ts';

function bankError(details: Partial<BankErrorDetails> & Pick<BankErrorDetails, 'kind'>): BankError {
  return new BankError({
    endpoint: 'GET /ping',
    profileName: 'Acme',
    status: null,
    serverMessage: null,
    retryable: false,
    remedy: '',
    attempts: 1,
    ...details,
  });
}

function shapeOf(error: unknown) {
  return toIpcError(translateServiceError(error), { channel: 'test.call' });
}

describe('translateServiceError', () => {
  it.each<[string, Error, string]>([
    [
      'a refused API key',
      bankError({ kind: 'unauthorized', status: 401, remedy: 'Check the API key of profile Acme.' }),
      'unauthorized',
    ],
    ['a bank that is offline', bankError({ kind: 'bank-offline', status: 502, retryable: true }), 'offline'],
    ['a rate limit', bankError({ kind: 'rate-limited', status: 429, retryable: true }), 'rate_limited'],
    ['a schema violation', bankError({ kind: 'schema-violation', status: 200 }), 'bank_error'],
    ['an unknown profile', new ProfileNotFound('x'), 'not_found'],
    [
      'an unconfirmed production write',
      new ProductionWriteNotConfirmed('Prod', 'add webhook'),
      'confirmation_required',
    ],
    ['a missing secret', new MissingCredentials('Acme', 'API key secret'), 'unauthorized'],
    [
      'no keychain',
      new KeychainUnavailable({
        available: false,
        problem: 'no-secret-service',
        message: 'No Secret Service is running.',
        remedy: 'Install gnome-keyring.',
      }),
      'keychain_unavailable',
    ],
    ['a busy sync', new SyncBusy('pending transactions of Acme'), 'conflict'],
    ['a full disk', new CacheError('disk-full', 'The disk is full.'), 'storage_error'],
    ['a bad cursor', new CacheError('bad-cursor', 'That cursor is not valid.'), 'invalid_input'],
    ['a taken port', new PortTakenError('127.0.0.1', 4880, 4881), 'port_in_use'],
    ['a refused exposure', new ExposureRefusedError('0.0.0.0'), 'invalid_input'],
    ['nothing to replay', new NothingToReplayError(), 'not_found'],
    ['a review of an item not cached', new ReviewProblem('not-cached', 'refs', 'Not cached.'), 'not_found'],
    ['a record held by another app', new RecordError('held', 'Held by web mode.'), 'conflict'],
    ['a team server down', new TeamProblem('unreachable', 'The team server cannot be reached.'), 'offline'],
    ['a team history that does not verify', new TeamProblem('tampered', 'Event 4 does not verify.', 4), 'conflict'],
    [
      'a zod error',
      Object.assign(new Error('invalid'), {
        name: 'ZodError',
        issues: [{ path: ['name'], message: 'must be 1 to 64 letters' }],
      }),
      'invalid_input',
    ],
  ])('%s', (_name, error, code) => {
    const shape = shapeOf(error);
    expect(shape.code).toBe(code);
    expect(shape.message).not.toContain('    at ');
  });

  it('keeps the bank’s advice as the action, and its status', () => {
    const shape = shapeOf(
      bankError({ kind: 'unauthorized', status: 401, remedy: 'Check the API key of profile Acme.' }),
    );
    expect(shape).toMatchObject({
      code: 'unauthorized',
      status: 401,
      retryable: false,
      action: 'Check the API key of profile Acme.',
    });
  });

  it('offers the next free port when the listener’s port is taken', () => {
    expect(shapeOf(new PortTakenError('127.0.0.1', 4880, 4881))).toMatchObject({
      field: 'port',
      action: 'Port 4881 is free: start the listener there.',
    });
  });

  it('names the field of a zod error', () => {
    const error = Object.assign(new Error('x'), {
      name: 'ZodError',
      issues: [{ path: ['name'], message: 'must not be empty' }],
    });
    expect(shapeOf(error)).toMatchObject({ code: 'invalid_input', field: 'name', message: 'Name: must not be empty.' });
  });

  it('names the field of a service’s own input check (SchemaViolation) and of a taken profile name', () => {
    const violation = new SchemaViolation(
      'New profile',
      ['keyId: is required when authScheme is basic', 'baseUrl: must be an absolute http:// or https:// address'],
      ['keyId', 'baseUrl'],
    );
    expect(shapeOf(violation)).toMatchObject({
      code: 'invalid_input',
      field: 'keyId',
      message: expect.stringMatching(/^KeyId: is required when authScheme is basic; baseUrl: /) as unknown,
    });
    expect(
      shapeOf(new SchemaViolation('Profile changes', ['must change at least one field'], [''])),
    ).not.toHaveProperty('field');
    expect(shapeOf(new ProfileRefused('A profile named Acme already exists.', 'name'))).toMatchObject({
      code: 'conflict',
      field: 'name',
    });
  });

  it('copies an answer carried by any error, known to this file or not', () => {
    const carried = Object.assign(new Error('The archive is not one Ledgerdesk wrote.'), {
      answer: { code: 'invalid_input', field: 'file', action: 'Choose an archive made by ledger record export.' },
    });
    expect(shapeOf(carried)).toEqual({
      code: 'invalid_input',
      message: 'The archive is not one Ledgerdesk wrote.',
      field: 'file',
      action: 'Choose an archive made by ledger record export.',
      retryable: false,
    });
    // An answer with a code the contract does not know is no answer: the router calls it internal.
    expect(shapeOf(Object.assign(new Error('x'), { answer: { code: 'teapot' } })).code).toBe('internal');
  });

  it('leaves anything else to the router, which calls it internal', () => {
    const error = new TypeError('x is undefined');
    expect(translateServiceError(error)).toBe(error);
    expect(shapeOf(error).code).toBe('internal');
  });

  it('IpcFailure carries its code through the router', () => {
    expect(shapeOf(new IpcFailure('not_available', 'Grouping is not available yet.'))).toEqual({
      code: 'not_available',
      message: 'Grouping is not available yet.',
      retryable: false,
    });
  });

  it("a bank out of reach reaches the window in a person's words, said once (message, then what to do)", () => {
    const down = bankError({
      kind: 'unreachable',
      endpoint: 'GET /account/{account_id}/pending_transaction',
      serverMessage: 'the bank at http://127.0.0.1:34057 cannot be reached (ECONNREFUSED)',
      retryable: true,
      remedy: 'Check your network connection, or try later.',
      forPeople: {
        message: 'The local sandbox bank is not running.',
        action: 'Restart it from Settings; cached data stays available.',
      },
    });
    expect(down.message).toMatch(/127\.0\.0\.1/);
    const shape = shapeOf(down);
    expect(shape).toEqual({
      code: 'offline',
      message: 'The local sandbox bank is not running.',
      action: 'Restart it from Settings; cached data stays available.',
      retryable: true,
    });
    expect(JSON.stringify(shape)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|\/account\//);
  });
});
