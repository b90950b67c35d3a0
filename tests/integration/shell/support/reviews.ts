/**
 * TEST ONLY: two reviews made with `ledger` against the running app (sent over its control
 * socket), and the refs the record lists as reviewed, for the restart and recovery tests.
 */
import { expect } from 'vitest';
import type { ChildResult } from '../../services/support/childProcess.ts';

const PROFILE = 'Local sandbox';

/** `ledger` on the test's data folder, as a real process. */
type Ledger = (...args: string[]) => Promise<ChildResult>;

/** A sync of the account; the first open's own sync of the same account may still hold it: asked again (bounded). */
async function syncAccount(ledger: Ledger, account: string): Promise<void> {
  for (let attempt = 0; attempt < 30; attempt += 1) {
    const synced = await ledger('sync', 'pending-transactions', '--profile', PROFILE, '--account', account);
    if (synced.code === 0) return;
    expect(synced.stderr).toMatch(/already|busy|running/i);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error('the account never synced');
}

/** Two cached items of the first account, by the web mode that runs. */
export async function reviewTwo(ledger: Ledger): Promise<string[]> {
  const accounts = await ledger('--json', 'accounts', '--profile', PROFILE);
  expect(accounts.stderr).toBe('');
  const account = (JSON.parse(accounts.stdout) as { rows: { id: string }[] }).rows[0]?.id ?? '';
  await syncAccount(ledger, account);
  const listed = await ledger(
    '--json',
    'list',
    'pending-transactions',
    '--profile',
    PROFILE,
    '--account',
    account,
    '--limit',
    '2',
  );
  const refs = (JSON.parse(listed.stdout) as { rows: { ref: string }[] }).rows.map((row) => row.ref);
  expect(refs).toHaveLength(2);
  for (const [index, ref] of refs.entries()) {
    const given = await ledger(
      'review',
      'set',
      '--profile',
      PROFILE,
      '--kind',
      'pending-transaction',
      '--ref',
      ref,
      '--disposition',
      index === 0 ? 'cleared' : 'flagged',
      '--note',
      `kept across restarts ${String(index)}`,
    );
    expect(given.stderr).toBe('');
    expect(given.code).toBe(0);
  }
  return refs;
}

/** The refs cleared and flagged by a person, as the record lists them now. */
export async function reviewedRefs(ledger: Ledger): Promise<string[]> {
  const refs: string[] = [];
  for (const status of ['cleared', 'flagged-by-person']) {
    const listed = await ledger('--json', 'review', 'list', '--profile', PROFILE, '--status', status);
    expect(listed.code, listed.stderr).toBe(0);
    refs.push(...(JSON.parse(listed.stdout) as { rows: { ref: string }[] }).rows.map((row) => row.ref));
  }
  return refs.sort();
}
