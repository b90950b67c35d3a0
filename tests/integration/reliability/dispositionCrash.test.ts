/**
 * Issue 34: `kill -9` during a 1,000-item disposition loses nothing. `ledger review set` with
 * 1,000 refs runs in a child process (the services' command line, the test's file-backed
 * keychain) and is killed at seeded random points of the end of its run, where it writes. After every kill the
 * officer's record passes `PRAGMA integrity_check`; the 1,000 items carry either every one the
 * disposition they had before or every one the new one (all or nothing, never a part); the ten
 * reviews given before are untouched, note and all; and `ledger audit verify` is ok.
 *
 * LEDGERDESK_CRASH_SEED (default below) seeds the kill points.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNode } from '../services/support/childProcess.ts';
import { startBank, type RunningSandbox } from '../services/support/sandboxBank.ts';
import { makeTempFolder } from '../services/support/tempFolder.ts';
import { seeded, exitOf } from './support/killPoints.ts';

const SEED = Number(process.env['LEDGERDESK_CRASH_SEED'] ?? 20_261_202);
const ROOT = join(import.meta.dirname, '..', '..', '..');
const LEDGER_CHILD = join(ROOT, 'tests', 'integration', 'services', 'support', 'ledgerChild.ts');
const SELECTION = 1_000;
const EARLIER = 10;
const KILLS = 6;

interface Row {
  ref: string;
  review: { disposition: string; note: string | null } | null;
}

const temp = makeTempFolder('ledgerdesk-disposition-crash-');
const data = join(temp.folder, 'data');
const environment = { ...process.env, LEDGERDESK_TEST_SECRETS_FILE: join(temp.folder, 'secrets.json') };
let bank: RunningSandbox;
let account: string;

async function ledger(...argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runNode([LEDGER_CHILD, '--data', data, ...argv], { env: environment });
}

/** Every cached transaction of the account with its review, as `ledger list` prints them (pages of 1,000). */
async function rows(): Promise<Row[]> {
  const all: Row[] = [];
  let cursor: string | null = null;
  do {
    const listed = await ledger(
      '--json',
      'list',
      'pending-transactions',
      '--profile',
      'Sandbox',
      '--account',
      account,
      '--limit',
      '1000',
      ...(cursor === null ? [] : ['--cursor', cursor]),
    );
    expect(listed.code, listed.stderr).toBe(0);
    const page = JSON.parse(listed.stdout) as { rows: Row[]; nextCursor: string | null };
    all.push(...page.rows);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return all;
}

function dispositionArguments(refs: readonly string[], disposition: string, note: string): string[] {
  return [
    LEDGER_CHILD,
    '--data',
    data,
    'review',
    'set',
    '--profile',
    'Sandbox',
    '--kind',
    'pending-transaction',
    ...refs.flatMap((ref) => ['--ref', ref]),
    '--disposition',
    disposition,
    '--note',
    note,
  ];
}

beforeAll(async () => {
  bank = await startBank({ accounts: 1, pendingTransactionsPerAccount: SELECTION + EARLIER });
  account = bank.demo.accounts[0] ?? '';
  const added = await runNode(
    [LEDGER_CHILD, '--data', data, 'profile', 'add', 'Sandbox', '--base-url', bank.baseUrl, '--key-id', bank.keyId],
    { input: bank.keySecret, env: environment },
  );
  expect(added.code, added.stderr).toBe(0);
  const synced = await ledger('sync', 'pending-transactions', '--profile', 'Sandbox', '--account', account);
  expect(synced.code, synced.stderr).toBe(0);
});

afterAll(async () => {
  await bank.close();
  temp.remove();
});

describe('kill -9 during a 1,000-item disposition', () => {
  it('leaves all 1,000 before or all after, the earlier reviews as they were, and the audit chain verifiable', async () => {
    const cached = await rows();
    expect(cached).toHaveLength(SELECTION + EARLIER);
    const earlier = cached.slice(0, EARLIER).map((row) => row.ref);
    const selection = cached.slice(EARLIER).map((row) => row.ref);
    const given = await runNode(dispositionArguments(earlier, 'cleared', 'Known payroll card'), { env: environment });
    expect(given.code, given.stderr).toBe(0);

    // One whole run first: it must succeed, and its length spreads the kill points over it.
    const started = performance.now();
    const whole = await runNode(dispositionArguments(selection, 'flagged', 'Round 0'), { env: environment });
    const runMs = performance.now() - started;
    expect(whole.code, whole.stderr).toBe(0);
    let before = { disposition: 'flagged', note: 'Round 0' };

    const random = seeded(SEED);
    const seen: string[] = [];
    const outcomes = { before: 0, after: 0 };
    for (let round = 1; round <= KILLS; round += 1) {
      const next = {
        disposition: ['escalated', 'cleared', 'flagged'][round % 3] ?? 'flagged',
        note: `Round ${String(round)}`,
      };
      const victim = spawn(process.execPath, dispositionArguments(selection, next.disposition, next.note), {
        env: environment,
        stdio: 'ignore',
      });
      const exited = exitOf(victim);
      // Most of a run is the process starting and the services opening; the writes come last,
      // so the kill points fall in its last quarter and a little past it.
      const killAt = Math.floor(runMs * (0.75 + random() * 0.35));
      await new Promise((resolve) => setTimeout(resolve, killAt));
      victim.kill('SIGKILL');
      const ended = await exited;

      const record = new DatabaseSync(join(data, 'record.sqlite'), { readOnly: true });
      const integrity = record.prepare('PRAGMA integrity_check').all();
      record.close();
      expect(integrity, seen.join('; ')).toEqual([{ integrity_check: 'ok' }]);

      const now = new Map((await rows()).map((row) => [row.ref, row.review]));
      const states = new Set(
        selection.map((ref) => `${String(now.get(ref)?.disposition)}|${String(now.get(ref)?.note)}`),
      );
      seen.push(
        `round ${String(round)}: killed at ${String(killAt)} ms of ~${String(Math.round(runMs))} (${String(ended)}), ${[...states].join(', ')}`,
      );
      // All or nothing: one state across the 1,000, the old one or the new one.
      expect(states.size, seen.join('; ')).toBe(1);
      const state = [...states][0];
      if (state === `${before.disposition}|${before.note}`) outcomes.before += 1;
      else {
        expect(state, seen.join('; ')).toBe(`${next.disposition}|${next.note}`);
        outcomes.after += 1;
        before = next;
      }
      for (const ref of earlier)
        expect(now.get(ref), ref).toMatchObject({ disposition: 'cleared', note: 'Known payroll card' });

      const verified = await ledger('audit', 'verify');
      expect(verified.code, `${seen.join('; ')}\n${verified.stdout}${verified.stderr}`).toBe(0);
    }
    process.stdout.write(
      `Disposition crash, seed ${String(SEED)}: ${seen.join('; ')} (${String(outcomes.before)} before, ${String(outcomes.after)} after)\n`,
    );
  });
});
