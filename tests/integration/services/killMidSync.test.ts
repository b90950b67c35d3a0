/**
 * `kill -9` in the middle of a sync, in a real child process: the cache file is intact, the
 * rows kept are exactly those of the checkpoint, and the next run resumes after the last page
 * kept instead of starting over. Both ways a sync walks a list: one cursor (`--parallel 1`),
 * and date windows side by side, each with its own cursor (the default).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runNode } from './support/childProcess.ts';
import { startBank, type RunningSandbox } from './support/sandboxBank.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const TOTAL = 20_000;
const child = join(import.meta.dirname, 'support', 'ledgerChild.ts');

let sandbox: RunningSandbox;
let temp: { folder: string; remove: () => void };

beforeEach(async () => {
  sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: TOTAL });
  temp = makeTempFolder();
});

afterEach(async () => {
  await sandbox.close();
  temp.remove();
});

function environment(): NodeJS.ProcessEnv {
  return { ...process.env, LEDGERDESK_TEST_SECRETS_FILE: join(temp.folder, 'secrets.json') };
}

function data(): string[] {
  return ['--data', join(temp.folder, 'data')];
}

interface Checkpoint {
  state: string;
  cursor: string | null;
  fetched: number;
  written: number;
}

interface WindowRow {
  cursor: string | null;
  done: number;
  fetched: number;
  written: number;
}

function readCheckpoint(): Checkpoint | null {
  const database = new DatabaseSync(join(temp.folder, 'data', 'cache.db'), { readOnly: true });
  try {
    database.exec('PRAGMA busy_timeout = 2000');
    return (
      (database.prepare('SELECT state, cursor, fetched, written FROM sync_state').get() as Checkpoint | undefined) ??
      null
    );
  } catch {
    return null;
  } finally {
    database.close();
  }
}

describe.each([
  { parallel: '1', windowed: false },
  { parallel: '6', windowed: true },
])('kill -9 in the middle of a sync (--parallel $parallel)', ({ parallel, windowed }) => {
  it('leaves no corruption, and the next sync resumes from the checkpoint', async () => {
    const account = sandbox.demo.accounts[0] ?? '';
    const added = await runNode(
      [child, ...data(), 'profile', 'add', 'Sandbox', '--base-url', sandbox.baseUrl, '--key-id', sandbox.keyId],
      {
        input: sandbox.keySecret,
        env: environment(),
      },
    );
    expect(added.code).toBe(0);

    const syncArguments = [
      child,
      ...data(),
      '--json',
      'sync',
      'pending-transactions',
      '--profile',
      'Sandbox',
      '--account',
      account,
      '--page-size',
      '100',
      '--parallel',
      parallel,
    ];
    const victim = spawn(process.execPath, syncArguments, { env: environment(), stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      victim.once('exit', (_code, signal) => {
        resolve(signal);
      }),
    );
    // Bounded wait until a few pages are committed, then kill without warning.
    let seen: Checkpoint | null = null;
    for (let round = 0; round < 3000 && (seen === null || seen.fetched < 2_000); round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      seen = readCheckpoint();
    }
    expect(seen?.fetched ?? 0).toBeGreaterThanOrEqual(2_000);
    victim.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const database = new DatabaseSync(join(temp.folder, 'data', 'cache.db'));
    const integrity = database.prepare('PRAGMA integrity_check').all();
    const checkpoint = database
      .prepare('SELECT state, cursor, fetched, written FROM sync_state')
      .get() as unknown as Checkpoint;
    const rows = (database.prepare('SELECT COUNT(*) AS n FROM pending_transactions').get() as { n: number }).n;
    const windows = database
      .prepare('SELECT cursor, done, fetched, written FROM sync_windows ORDER BY window_index')
      .all() as unknown as WindowRow[];
    database.close();
    expect(integrity).toEqual([{ integrity_check: 'ok' }]);
    expect(checkpoint.state).toBe('running');
    expect(checkpoint.fetched).toBeLessThan(TOTAL);
    if (windowed) {
      // Each window has its own cursor; the job's totals are the windows' sums, committed together.
      expect(checkpoint.cursor).toBeNull();
      expect(windows.length).toBeGreaterThan(1);
      expect(windows.some((window) => window.done === 0)).toBe(true);
      expect(
        windows.filter((window) => window.done === 0 && window.fetched > 0).every((window) => window.cursor !== null),
      ).toBe(true);
      expect(windows.reduce((sum, window) => sum + window.written, 0)).toBe(checkpoint.written);
      expect(windows.reduce((sum, window) => sum + window.fetched, 0)).toBe(checkpoint.fetched);
    } else {
      expect(checkpoint.cursor).not.toBeNull();
      expect(windows).toEqual([]);
      expect(checkpoint.fetched % 100).toBe(0);
    }
    // Rows and checkpoint were committed together: exactly the pages the checkpoint counts.
    expect(rows).toBe(checkpoint.written);
    expect(checkpoint.fetched).toBe(checkpoint.written);

    const resumed = await runNode(syncArguments, { env: environment() });
    expect(resumed).toMatchObject({ code: 0, stderr: '' });
    const outcome = JSON.parse(resumed.stdout) as {
      state: string;
      resumed: boolean;
      fetched: number;
      written: number;
      removed: number;
    };
    // fetched counts on from the checkpoint: had it started over, it would be checkpoint + TOTAL.
    expect(outcome).toMatchObject({ state: 'done', resumed: true, fetched: TOTAL, written: TOTAL, removed: 0 });

    const after = new DatabaseSync(join(temp.folder, 'data', 'cache.db'), { readOnly: true });
    const counts = after
      .prepare('SELECT COUNT(*) AS rows, COUNT(DISTINCT row_key) AS keys FROM pending_transactions')
      .get();
    after.close();
    expect(counts).toEqual({ rows: TOTAL, keys: TOTAL });
  });
});
