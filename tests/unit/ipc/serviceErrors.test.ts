/** The services' error classes reach the window as the right contract codes, with their advice. */
import { describe, expect, it } from 'vitest';
import { toIpcError } from '../../../src/main/ipc/errorMapping.ts';
import { IpcFailure, translateServiceError } from '../../../src/main/ipc/serviceErrors.ts';
import { SchemaViolation } from '../../../src/shared/bank/index.ts';

function named(name: string, message: string, fields: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { name, ...fields });
}

function shapeOf(error: unknown) {
  return toIpcError(translateServiceError(error), { channel: 'test.call' });
}

describe('translateServiceError', () => {
  it.each([
    [
      'a refused API key',
      named('BankError', 'GET /ping (401): the bank refused the credentials. Check the API key of profile Acme.', {
        kind: 'unauthorized',
        status: 401,
        retryable: false,
        remedy: 'Check the API key of profile Acme.',
      }),
      'unauthorized',
    ],
    [
      'a bank that is offline',
      named('BankError', 'the bank core is offline', {
        kind: 'bank-offline',
        status: 502,
        retryable: true,
        remedy: 'Try again later.',
      }),
      'offline',
    ],
    [
      'a rate limit',
      named('BankError', 'slow down', { kind: 'rate-limited', status: 429, retryable: true, remedy: 'Wait a minute.' }),
      'rate_limited',
    ],
    [
      'a schema violation',
      named('BankError', 'the bank answered data that does not match', {
        kind: 'schema-violation',
        status: 200,
        retryable: false,
        remedy: 'Report it.',
      }),
      'bank_error',
    ],
    ['an unknown profile', named('ProfileNotFound', 'There is no profile named x.'), 'not_found'],
    [
      'an unconfirmed production write',
      named('ProductionWriteNotConfirmed', 'Profile Prod is a production profile.'),
      'confirmation_required',
    ],
    ['a missing secret', named('MissingCredentials', 'Profile Acme has no API key secret.'), 'unauthorized'],
    [
      'no keychain',
      named('KeychainUnavailable', 'No Secret Service is running.', { status: { remedy: 'Install gnome-keyring.' } }),
      'keychain_unavailable',
    ],
    ['a busy sync', named('SyncBusy', 'A sync of x is already running.'), 'conflict'],
    ['a full disk', named('CacheError', 'The disk is full.', { kind: 'disk-full' }), 'storage_error'],
    ['a bad cursor', named('CacheError', 'That cursor is not valid.', { kind: 'bad-cursor' }), 'invalid_input'],
    ['a taken port', named('PortTakenError', 'Port 4880 is taken.', { nextFreePort: 4881 }), 'port_in_use'],
    ['a refused exposure', named('ExposureRefusedError', 'Refusing to listen on 0.0.0.0.'), 'invalid_input'],
    ['nothing to replay', named('NothingToReplayError', 'No kept request matches.'), 'not_found'],
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
      named('BankError', 'GET /ping (401): the bank refused the credentials.', {
        kind: 'unauthorized',
        status: 401,
        retryable: false,
        remedy: 'Check the API key of profile Acme.',
      }),
    );
    expect(shape).toMatchObject({
      code: 'unauthorized',
      status: 401,
      retryable: false,
      action: 'Check the API key of profile Acme.',
    });
  });

  it('offers the next free port when the listener’s port is taken', () => {
    expect(shapeOf(named('PortTakenError', 'Port 4880 is taken.', { nextFreePort: 4881 }))).toMatchObject({
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
    expect(shapeOf(named('ProfileRefused', 'A profile named Acme already exists.', { field: 'name' }))).toMatchObject({
      code: 'conflict',
      field: 'name',
    });
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
    const down = named(
      'BankError',
      'GET /account/{account_id}/pending_transaction: the bank at http://127.0.0.1:34057 cannot be reached (ECONNREFUSED). Check your network connection, or try later.',
      {
        kind: 'unreachable',
        status: null,
        retryable: true,
        remedy: 'Check your network connection, or try later.',
        forPeople: {
          message: 'The local sandbox bank is not running.',
          action: 'Restart it from Settings; cached data stays available.',
        },
      },
    );
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
