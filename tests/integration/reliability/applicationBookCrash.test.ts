/**
 * kill -9 of the application book sync (issue 24): `ledger sync applications` in a child
 * process (the services' command line, with the test's file-backed keychain) against the real
 * sandbox bank holding a few hundred applications, killed at seeded random points while it
 * writes. After every kill the cache file passes `PRAGMA integrity_check` and what it kept never
 * shrinks; the last run ends with every application the bank lists exactly once (no duplicate,
 * no gap), every person and business they name kept once and linked to each, and it resumed
 * (it fetched fewer records than a run from nothing).
 *
 * LEDGERDESK_CRASH_SEED (default below) seeds the kill points.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountApplication } from '../../../src/shared/bank/index.ts';
import { runNode } from '../services/support/childProcess.ts';
import { basicOf, startBank, type RunningSandbox } from '../services/support/sandboxBank.ts';
import { makeTempFolder } from '../services/support/tempFolder.ts';
import { seeded, sleep, exitOf } from './support/killPoints.ts';

const SEED = Number(process.env['LEDGERDESK_CRASH_SEED'] ?? 20_261_127);
const ROOT = join(import.meta.dirname, '..', '..', '..');
const LEDGER_CHILD = join(ROOT, 'tests', 'integration', 'services', 'support', 'ledgerChild.ts');
/** Applications made on top of the seeded ones, so a run has many pages to be killed in. */
const MADE = 300;
const PAGE_SIZE = 5;

const temp = makeTempFolder('ledgerdesk-book-crash-');
const data = join(temp.folder, 'ledger');
const environment = { ...process.env, LEDGERDESK_TEST_SECRETS_FILE: join(temp.folder, 'secrets.json') };
let bank: RunningSandbox;

async function call<Answer>(method: string, path: string, body?: unknown): Promise<Answer> {
  const answer = await fetch(bank.baseUrl + path, {
    method,
    headers: { authorization: basicOf(bank), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`${method} ${path}: ${String(answer.status)} ${text}`);
  return JSON.parse(text) as Answer;
}

beforeAll(async () => {
  bank = await startBank({ accounts: 1, pendingTransactionsPerAccount: 2 });
  const people = bank.demo.personApplications;
  for (let index = 0; index < MADE; index += 1) {
    await call('POST', '/apply/account_application', {
      primary_person_application_id: people[index % people.length],
      account_product_id: 'apt_11ha1payax7042',
    });
  }
});

afterAll(async () => {
  await bank.close();
  temp.remove();
});

/** What the cache file holds now (read-only beside the writer), and whether it is intact. */
function cacheState(): { applications: number; applicants: number; integrity: unknown } | null {
  let database: DatabaseSync;
  try {
    database = new DatabaseSync(join(data, 'cache.db'), { readOnly: true });
  } catch {
    return null; // not created yet
  }
  try {
    database.exec('PRAGMA busy_timeout = 2000');
    const count = (table: string) => (database.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    return {
      applications: count('account_applications'),
      applicants: count('applicants'),
      integrity: database.prepare('PRAGMA integrity_check').all(),
    };
  } catch {
    return null; // its schema not made yet
  } finally {
    database.close();
  }
}

describe('kill -9 of the application book sync at random points', () => {
  it('keeps the cache intact, never loses what it kept, and resumes to every application once', async () => {
    const random = seeded(SEED);
    const listed = (await call<{ data: AccountApplication[] }>('GET', '/apply/account_application?page_size=1000'))
      .data;
    const total = listed.length;
    expect(total).toBeGreaterThanOrEqual(MADE);
    const added = await runNode(
      [LEDGER_CHILD, '--data', data, 'profile', 'add', 'Sandbox', '--base-url', bank.baseUrl, '--key-id', bank.keyId],
      { input: bank.keySecret, env: environment },
    );
    expect(added.code, added.stderr).toBe(0);
    const syncArguments = [
      LEDGER_CHILD,
      '--data',
      data,
      '--json',
      'sync',
      'applications',
      '--profile',
      'Sandbox',
      '--page-size',
      String(PAGE_SIZE),
      '--parallel',
      '2',
    ];

    let kept = 0;
    const kills: string[] = [];
    for (let round = 0; round < 3; round += 1) {
      const victim = spawn(process.execPath, syncArguments, { env: environment, stdio: 'ignore' });
      const exited = exitOf(victim);
      const target = kept + Math.floor(random() * (total - kept) * 0.4);
      for (
        let check = 0;
        check < 1_000 && (cacheState()?.applications ?? 0) < target && victim.exitCode === null;
        check += 1
      ) {
        await sleep(20);
      }
      await sleep(Math.floor(random() * 40));
      victim.kill('SIGKILL');
      const ended = await exited;
      const state = cacheState();
      kills.push(
        `round ${String(round)}: target ${String(target)}, ${String(ended)}, kept ${String(state?.applications)}`,
      );
      if (state === null) continue;
      expect(state.integrity, kills.join('; ')).toEqual([{ integrity_check: 'ok' }]);
      // What a killed run kept stays kept: rows and their checkpoint commit together.
      expect(state.applications, kills.join('; ')).toBeGreaterThanOrEqual(kept);
      kept = state.applications;
    }
    process.stdout.write(`Crash safety (application book), seed ${String(SEED)}: ${kills.join('; ')}\n`);
    expect(kept).toBeGreaterThan(0);

    const resumed = await runNode(syncArguments, { env: environment });
    expect(resumed.code, resumed.stderr).toBe(0);
    const outcome = JSON.parse(resumed.stdout) as { state: string; fetched: number };
    expect(outcome.state).toBe('done');

    const after = new DatabaseSync(join(data, 'cache.db'), { readOnly: true });
    try {
      const ids = (
        after.prepare('SELECT application_id FROM account_applications ORDER BY application_id').all() as {
          application_id: string;
        }[]
      ).map((row) => row.application_id);
      // Every application the bank lists, each once: no gap, no duplicate.
      expect(ids).toEqual(listed.map((application) => application.id).sort());
      const named = new Set(
        listed.flatMap((application) => [
          application.primary_person_application_id,
          ...(application.person_applications ?? []).map((person) => person.id),
          ...(application.business_application_id === null ? [] : [application.business_application_id]),
        ]),
      );
      const applicants = after.prepare('SELECT applicant_id, state FROM applicants ORDER BY applicant_id').all() as {
        applicant_id: string;
        state: string;
      }[];
      expect(applicants.map((row) => row.applicant_id)).toEqual([...named].sort());
      expect(applicants.every((row) => row.state === 'received')).toBe(true);
      const links = after
        .prepare('SELECT COUNT(*) AS rows, COUNT(DISTINCT application_id) AS applications FROM application_applicants')
        .get() as { rows: number; applications: number };
      expect(links.applications).toBe(total);
      // Had it started over, it would have fetched every application again.
      expect(outcome.fetched).toBeLessThan(total + named.size);
    } finally {
      after.close();
    }
  }, 600_000); // a hang guard: five runs of the CLI in child processes on a shared machine
});
