/**
 * Issue 37, item 3: a 429 whose body names a limit (an account's daily ACH limit) is reported
 * as that limit and never retried; a 429 that says "slow down" is still waited for and retried.
 * Against the real sandbox: `--ach-limit` answers the first, `--rate-limit` the second.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BankClient } from '../../../src/main/services/bank/bankClient.ts';
import { BankError } from '../../../src/main/services/bank/bankError.ts';
import { translateServiceError, IpcFailure } from '../../../src/main/ipc/serviceErrors.ts';
import type { SandboxTraffic } from '../../../src/sandbox/index.ts';
import { basicOf, startBank, type RunningSandbox } from '../services/support/sandboxBank.ts';

let limited: RunningSandbox;
const traffic: SandboxTraffic[] = [];

beforeAll(async () => {
  limited = await startBank({ achDailyLimit: '100.00', traffic: (entry) => traffic.push(entry) });
});

afterAll(async () => {
  await limited.close();
});

function clientOf(sandbox: RunningSandbox, realWaits = false): BankClient {
  return new BankClient({
    profileName: 'Acme sandbox',
    authScheme: 'basic',
    baseUrl: sandbox.baseUrl,
    authorization: () => Promise.resolve({ header: basicOf(sandbox), expiresAt: null }),
    retry: { baseDelayMs: 5, maxDelayMs: 10, maxAttempts: 4 },
    ...(realWaits ? {} : { sleep: () => Promise.resolve() }),
  });
}

function achCreate(client: BankClient, amount: string) {
  const [account] = limited.demo.accounts;
  return client.http.send({
    method: 'POST',
    path: '/simulation',
    endpoint: 'POST /simulation',
    json: { type: 'ach.create', simulation: { account_id: account, amount, direction: 'credit' } },
    idempotencyKey: `limit-${amount}-${String(Math.random())}`,
  });
}

describe('an account limit answered 429', () => {
  it('is reported as that limit, in the bank’s words, after one attempt', async () => {
    const client = clientOf(limited);
    await achCreate(client, '60.00');
    const mark = traffic.length;
    const error = (await achCreate(client, '50.00').catch((failure: unknown) => failure)) as BankError;
    expect(error).toBeInstanceOf(BankError);
    expect(error.kind).toBe('limit-exceeded');
    expect(error.status).toBe(429);
    expect(error.attempts).toBe(1);
    expect(error.retryable).toBe(false);
    expect(error.retryAfterSeconds).toBeUndefined();
    expect(error.serverMessage).toMatch(/ACH limit exceeded: account acct_\w+ may move at most \$100\.00 by ACH a day/);
    expect(error.forPeople?.message).toMatch(/^The bank refused: ACH limit exceeded/);
    expect(error.forPeople?.action).toMatch(/trying again soon will not help/);
    expect(error.message).not.toMatch(/try again in/);
    const posts = traffic.slice(mark).filter((entry) => entry.kind === 'request' && entry.path === '/simulation');
    expect(posts).toHaveLength(1);

    // The window is told the limit, not "the bank is limiting requests".
    const failure = translateServiceError(error) as IpcFailure;
    expect(failure.code).toBe('bank_error');
    expect(failure.message).toMatch(/ACH limit exceeded/);
  });
});

describe('a rate limit answered 429', () => {
  let rated: RunningSandbox;
  beforeAll(async () => {
    rated = await startBank({ rateLimit: 1 });
  });
  afterAll(async () => {
    await rated.close();
  });

  it('is still waited for and retried (Retry-After honoured)', async () => {
    const client = clientOf(rated, true);
    const waits: (number | null)[] = [];
    // The bucket's one token of this second.
    await client.listAccounts();
    const answer = await client.http.send({
      method: 'GET',
      path: '/account',
      endpoint: 'GET /account',
      onRetry: (retry) => waits.push(retry.retryAfterMs),
    });
    expect(answer.status).toBe(200);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.every((wait) => wait !== null && wait >= 1000)).toBe(true);
  });
});
