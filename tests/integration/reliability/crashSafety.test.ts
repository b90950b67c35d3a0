/**
 * Crash safety: `kill -9` at random (seeded) points, in bounded loops, of
 * 1. the sync — `ledger sync pending-transactions` in a child process (the services'
 *    command line, with the test's file-backed keychain): after every kill the cache file
 *    passes `PRAGMA integrity_check`, its rows are exactly those its checkpoint counts, the
 *    checkpoint never moves back, and the next run resumes from it (never from zero) until a
 *    last run finishes with every row exactly once;
 * 2. the sandbox bank — `npm run sandbox` (src/sandbox/cli.ts) on a data file — first in the
 *    middle of its seed, then repeatedly while it owes webhook deliveries to a receiver that
 *    answers 500: after every kill the data file passes `integrity_check`, every simulation it
 *    acknowledged is still there with its pending transaction (write and event commit
 *    together), and after the last restart with a healthy receiver every owed delivery
 *    resumes: each event ends in one chain of attempts numbered 0..n (no gap, no repeat),
 *    last `sent` or `error` with `will_retry: false`, and some are sent after a restart.
 *
 * LEDGERDESK_CRASH_SEED (default below) seeds the kill points.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNode } from '../services/support/childProcess.ts';
import { startBank, type RunningSandbox } from '../services/support/sandboxBank.ts';
import { makeTempFolder } from '../services/support/tempFolder.ts';
import { seeded, sleep, exitOf } from './support/killPoints.ts';

const SEED = Number(process.env['LEDGERDESK_CRASH_SEED'] ?? 20_260_808);
const ROOT = join(import.meta.dirname, '..', '..', '..');
const LEDGER_CHILD = join(ROOT, 'tests', 'integration', 'services', 'support', 'ledgerChild.ts');
const SANDBOX_CLI = join(ROOT, 'src', 'sandbox', 'cli.ts');

function integrityOf(file: string): unknown {
  const database = new DatabaseSync(file);
  try {
    return database.prepare('PRAGMA integrity_check').all();
  } finally {
    database.close();
  }
}

const temp = makeTempFolder('ledgerdesk-crash-');
afterAll(() => {
  temp.remove();
});

describe('kill -9 of the sync at random points', () => {
  const TOTAL = 20_000;
  let bank: RunningSandbox;
  const data = join(temp.folder, 'ledger');
  const environment = { ...process.env, LEDGERDESK_TEST_SECRETS_FILE: join(temp.folder, 'secrets.json') };

  beforeAll(async () => {
    bank = await startBank({ accounts: 1, pendingTransactionsPerAccount: TOTAL });
  });
  afterAll(async () => {
    await bank.close();
  });

  interface Checkpoint {
    state: string;
    cursor: string | null;
    fetched: number;
    written: number;
  }

  /** A date window of a windowed sync (the default, 6 walked at once): its own cursor. */
  interface WindowCheckpoint {
    cursor: string | null;
    done: number;
    fetched: number;
    written: number;
  }

  function cacheState(): {
    checkpoint: Checkpoint | null;
    windows: WindowCheckpoint[];
    rows: number;
    integrity: unknown;
  } {
    const database = new DatabaseSync(join(data, 'cache.db'));
    try {
      database.exec('PRAGMA busy_timeout = 2000');
      const checkpoint =
        (database.prepare('SELECT state, cursor, fetched, written FROM sync_state').get() as Checkpoint | undefined) ??
        null;
      const windows = database
        .prepare('SELECT cursor, done, fetched, written FROM sync_windows ORDER BY window_index')
        .all() as unknown as WindowCheckpoint[];
      const rows = (database.prepare('SELECT COUNT(*) AS n FROM pending_transactions').get() as { n: number }).n;
      return { checkpoint, windows, rows, integrity: database.prepare('PRAGMA integrity_check').all() };
    } finally {
      database.close();
    }
  }

  function fetchedSoFar(): number {
    try {
      const database = new DatabaseSync(join(data, 'cache.db'), { readOnly: true });
      try {
        database.exec('PRAGMA busy_timeout = 2000');
        const row = database.prepare('SELECT fetched FROM sync_state').get() as { fetched: number } | undefined;
        return row?.fetched ?? 0;
      } finally {
        database.close();
      }
    } catch {
      return 0; // not created yet
    }
  }

  it('keeps the cache intact and resumes from the checkpoint every time', async () => {
    const random = seeded(SEED);
    const added = await runNode(
      [LEDGER_CHILD, '--data', data, 'profile', 'add', 'Sandbox', '--base-url', bank.baseUrl, '--key-id', bank.keyId],
      { input: bank.keySecret, env: environment },
    );
    expect(added.code, added.stderr).toBe(0);
    const account = bank.demo.accounts[0] ?? '';
    const syncArguments = [
      LEDGER_CHILD,
      '--data',
      data,
      '--json',
      'sync',
      'pending-transactions',
      '--profile',
      'Sandbox',
      '--account',
      account,
      '--page-size',
      '100',
    ];

    let previous = 0;
    const kills: string[] = [];
    for (let round = 0; round < 5; round += 1) {
      const victim = spawn(process.execPath, syncArguments, { env: environment, stdio: 'ignore' });
      const exited = exitOf(victim);
      // The kill point: early (maybe before the first page) in one round, else past a random
      // share of what is left, plus a random few milliseconds.
      const target = round === 1 ? previous : previous + Math.floor(random() * (TOTAL - previous) * 0.5);
      for (let check = 0; check < 3_000 && fetchedSoFar() < target && victim.exitCode === null; check += 1) {
        await sleep(5);
      }
      await sleep(Math.floor(random() * 40));
      victim.kill('SIGKILL');
      const ended = await exited;
      const { checkpoint, windows, rows, integrity } = cacheState();
      kills.push(
        `round ${String(round)}: target ${String(target)}, ${String(ended)}, fetched ${String(checkpoint?.fetched)}`,
      );
      expect(integrity, kills.join('; ')).toEqual([{ integrity_check: 'ok' }]);
      if (checkpoint === null) continue;
      // Rows and checkpoint commit together; the checkpoint never moves back.
      expect(rows, kills.join('; ')).toBe(checkpoint.written);
      expect(checkpoint.fetched, kills.join('; ')).toBeGreaterThanOrEqual(previous);
      if (checkpoint.state === 'running' && checkpoint.written > 0) {
        if (windows.length === 0) expect(checkpoint.cursor, kills.join('; ')).not.toBeNull();
        else {
          // A windowed run: the job's totals are its windows' sums, committed with the same pages,
          // and every window that kept a page and is not done knows where to resume.
          expect(checkpoint.cursor).toBeNull();
          expect(windows.reduce((sum, window) => sum + window.written, 0)).toBe(checkpoint.written);
          expect(windows.reduce((sum, window) => sum + window.fetched, 0)).toBe(checkpoint.fetched);
          for (const window of windows) {
            if (window.done === 0 && window.fetched > 0) expect(window.cursor, kills.join('; ')).not.toBeNull();
          }
        }
      }
      previous = checkpoint.fetched;
    }
    process.stdout.write(`Crash safety (sync), seed ${String(SEED)}: ${kills.join('; ')}\n`);
    expect(previous).toBeGreaterThan(0);
    expect(previous).toBeLessThan(TOTAL);

    const resumed = await runNode(syncArguments, { env: environment });
    expect(resumed.code, resumed.stderr).toBe(0);
    const outcome = JSON.parse(resumed.stdout) as { state: string; resumed: boolean; fetched: number; written: number };
    // Had it started over, fetched would count past TOTAL.
    expect(outcome).toMatchObject({ state: 'done', resumed: true, fetched: TOTAL, written: TOTAL });
    const after = new DatabaseSync(join(data, 'cache.db'), { readOnly: true });
    const counts = after
      .prepare('SELECT COUNT(*) AS rows, COUNT(DISTINCT row_key) AS keys FROM pending_transactions')
      .get();
    after.close();
    expect(counts).toEqual({ rows: TOTAL, keys: TOTAL });
  });
});

describe('kill -9 of the sandbox bank at random points', () => {
  const file = join(temp.folder, 'sandbox.db');
  const key = { id: 'key_crash_test', secret: 'crash_test_secret_9f2b' };
  const authorization = `Basic ${Buffer.from(`${key.id}:${key.secret}`).toString('base64')}`;
  let receiver: Server;
  let receiverUrl: string;
  let healthy = false;
  /** The seed's own ACHs (made without pending transactions of their own). */
  let seededAchs = new Set<string>();
  const delivered: string[] = [];

  beforeAll(async () => {
    receiver = createServer((incoming, response) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        if (healthy) delivered.push(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(healthy ? 200 : 500, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}/hook`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      receiver.closeAllConnections();
      receiver.close(() => {
        resolve();
      });
    });
  });

  interface Life {
    child: ChildProcess;
    exited: Promise<NodeJS.Signals | number | null>;
    /** Resolves with the base URL once the bank prints its JSON line; null if it died first. */
    ready: Promise<{ baseUrl: string; accounts: string[] } | null>;
  }

  function startLife(pendingPerAccount: number): Life {
    const child = spawn(
      process.execPath,
      [
        SANDBOX_CLI,
        '--json',
        '--port',
        '0',
        '--data',
        file,
        '--accounts',
        '1',
        '--pending-per-account',
        String(pendingPerAccount),
        '--retry-base-ms',
        '100',
        '--retry-cap-ms',
        '400',
        '--key-id',
        key.id,
        '--key-secret',
        key.secret,
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const exited = exitOf(child);
    const ready = new Promise<{ baseUrl: string; accounts: string[] } | null>((resolve) => {
      const lines = createInterface({ input: child.stdout });
      lines.once('line', (line) => {
        resolve(JSON.parse(line) as { baseUrl: string; accounts: string[] });
      });
      void exited.then(() => {
        resolve(null);
      });
    });
    return { child, exited, ready };
  }

  async function call(
    baseUrl: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }> {
    const response = await fetch(baseUrl + path, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
  }

  function bankState(): { integrity: unknown; owed: number; pending: number; orphanAchs: number } {
    const database = new DatabaseSync(file);
    try {
      const integrity = database.prepare('PRAGMA integrity_check').all();
      const owed = (database.prepare('SELECT COUNT(*) AS n FROM delivery').get() as { n: number }).n;
      const pending = (database.prepare('SELECT COUNT(*) AS n FROM pending_transaction').get() as { n: number }).n;
      // An ACH without its pending transaction would be a torn write.
      const orphanAchs = database
        .prepare(
          `SELECT a.id FROM record a WHERE a.kind = 'ach' AND NOT EXISTS (
             SELECT 1 FROM pending_transaction p WHERE json_extract(p.body, '$.ach_id') = a.id)`,
        )
        .all()
        .filter((row) => !seededAchs.has(String(row['id']))).length;
      return { integrity, owed, pending, orphanAchs };
    } finally {
      database.close();
    }
  }

  it('keeps its data file intact, every acknowledged write, and resumes owed deliveries', async () => {
    const random = seeded(SEED + 1);
    const notes: string[] = [];
    const SEEDED = 40_000;

    // Life 0: killed at a random moment of its first start, most likely in the middle of the seed.
    const first = startLife(SEEDED);
    await sleep(50 + Math.floor(random() * 400));
    first.child.kill('SIGKILL');
    notes.push(`seed kill: ${String(await first.exited)}, had printed: ${String((await first.ready) !== null)}`);
    expect(integrityOf(file)).toEqual([{ integrity_check: 'ok' }]);

    // Life 1: the seed is finished (redone if it was cut short); a webhook to the failing receiver.
    let life = startLife(SEEDED);
    let started = await life.ready;
    if (started === null) throw new Error('the sandbox did not start after the seed kill');
    expect(bankState().pending).toBe(SEEDED);
    const account = started.accounts[0] ?? '';
    seededAchs = new Set(
      ((await call(started.baseUrl, 'GET', '/ach?page_size=1000')).body as { data: { id: string }[] }).data.map(
        (ach) => ach.id,
      ),
    );
    const webhook = await call(started.baseUrl, 'POST', '/webhook', { event: 'ach.create', url: receiverUrl });
    expect(webhook.status).toBe(200);
    const webhookId = (webhook.body as { id: string }).id;

    const acknowledged: string[] = [];
    for (let round = 0; round < 4; round += 1) {
      if (round > 0) {
        life = startLife(SEEDED);
        started = await life.ready;
        if (started === null) throw new Error(`the sandbox did not restart in round ${String(round)}`);
      }
      const baseUrl = started.baseUrl;
      // Every write it acknowledged before is still there.
      for (const achId of acknowledged) expect((await call(baseUrl, 'GET', `/ach/${achId}`)).status).toBe(200);
      // A burst of events, killed at a random point during it or just after.
      const burst = 5 + Math.floor(random() * 10);
      const killAfterMs = Math.floor(random() * 60);
      const sending = (async () => {
        for (let index = 0; index < burst; index += 1) {
          try {
            const answer = await call(baseUrl, 'POST', '/simulation', {
              type: 'ach.create',
              simulation: { account_id: account, amount: '2.00', direction: 'debit' },
            });
            if (answer.status === 202) acknowledged.push((answer.body as { object_id: string }).object_id);
          } catch {
            return; // the bank died under this request: it was never acknowledged
          }
        }
      })();
      await sleep(killAfterMs);
      life.child.kill('SIGKILL');
      const ended = await life.exited;
      await sending;
      const state = bankState();
      notes.push(
        `round ${String(round)}: ${String(burst)} events, killed after ${String(killAfterMs)} ms (${String(ended)}), owed ${String(state.owed)}`,
      );
      expect(state.integrity, notes.join('; ')).toEqual([{ integrity_check: 'ok' }]);
      expect(state.orphanAchs, notes.join('; ')).toBe(0);
      await sleep(Math.floor(random() * 300));
    }
    expect(acknowledged.length).toBeGreaterThan(0);

    // The last life, with a healthy receiver: what is owed resumes and drains.
    healthy = true;
    life = startLife(SEEDED);
    started = await life.ready;
    if (started === null) throw new Error('the sandbox did not start for the last time');
    for (let check = 0; check < 2_000 && bankState().owed > 0; check += 1) await sleep(25);
    const baseUrl = started.baseUrl;
    for (const achId of acknowledged) expect((await call(baseUrl, 'GET', `/ach/${achId}`)).status).toBe(200);
    const sends = (
      (await call(baseUrl, 'GET', `/webhook_send?webhook_id=${webhookId}&page_size=1000`)).body as {
        data: { object_id: string; status: string; attempt_number: number; will_retry: boolean }[];
      }
    ).data;
    const achs = ((await call(baseUrl, 'GET', '/ach?page_size=1000')).body as { data: { id: string }[] }).data;
    life.child.kill('SIGTERM');
    await life.exited;
    process.stdout.write(
      `Crash safety (sandbox), seed ${String(SEED)}: ${notes.join('; ')}; ${String(acknowledged.length)} events acknowledged, ${String(achs.length - seededAchs.size)} committed\n`,
    );

    expect(bankState()).toMatchObject({ integrity: [{ integrity_check: 'ok' }], owed: 0, orphanAchs: 0 });
    let sentAfterRetries = 0;
    // Every ACH the simulations made (acknowledged or not: committed is committed) ends in one terminal chain.
    const created = achs.filter((ach) => !seededAchs.has(ach.id));
    for (const ach of created) {
      const chain = sends
        .filter((send) => send.object_id === ach.id)
        .sort((a, b) => a.attempt_number - b.attempt_number);
      const where = `${ach.id}: ${JSON.stringify(chain)}`;
      expect(chain.length, where).toBeGreaterThan(0);
      expect(
        chain.map((send) => send.attempt_number),
        where,
      ).toEqual(chain.map((_, index) => index));
      const last = chain[chain.length - 1];
      expect(last?.status === 'sent' || (last?.status === 'error' && !last.will_retry), where).toBe(true);
      expect(
        chain.slice(0, -1).every((send) => send.status === 'error' && send.will_retry),
        where,
      ).toBe(true);
      if (last?.status === 'sent' && chain.length > 1) sentAfterRetries += 1;
    }
    expect(created.length).toBeGreaterThanOrEqual(acknowledged.length);
    // Deliveries owed when the bank was killed were sent after it came back.
    expect(sentAfterRetries).toBeGreaterThan(0);
    expect(delivered.length).toBeGreaterThanOrEqual(sentAfterRetries);
  });
});
