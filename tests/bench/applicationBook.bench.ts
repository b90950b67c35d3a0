/**
 * `npm run bench -- applicationBook`: the application book sync (issue 24) of 10,000 account
 * applications and the 12,000 people and 2,000 businesses they name, from a bank 50 ms away
 * (the sandbox in its own process behind latencyProxy.ts, which holds each answer back 50 ms
 * and logs each request), into a new encrypted cache, against the sequential walk of the same
 * requests: every request the sync made, read from the proxy's log, made again one after
 * another through the same proxy and read (JSON parsed), nothing kept. Alternated (sync, walk,
 * sync, walk) so both see the same machine. Also, from the same log: the same requests made 6
 * at once with nothing kept (what the sync could reach with writing free), the time and
 * requests of each list walked (the sync's phases), and a resync with nothing new (its requests
 * against the number of applicants). Target (issue 24): the sync at least 5× as fast as the
 * sequential walk.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { LedgerServices } from '../../src/main/services/ledgerServices.ts';
import { InMemoryProfileStorage } from '../../src/main/services/profiles/profileStorage.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import { freshId } from '../../src/sandbox/random.ts';
import type { BenchFigure, Benchmark } from './benchmark.ts';
import { startChild, stopSandboxProcess, temporaryFolder, type SandboxChild } from './sandboxChild.ts';

const APPLICATIONS = 10_000;
const PERSONAL = 8_000;
const SECOND_SIGNERS = 4_000;
const PEOPLE = PERSONAL + SECOND_SIGNERS; // 12,000
const BUSINESSES = APPLICATIONS - PERSONAL; // 2,000
const DELAY_MS = 50;
const PARALLEL_REPLAY = 6;
const DAY_MS = 86_400_000;
const STATUSES = ['unsubmitted', 'submitted', 'canceled', 'kyc', 'processing', 'manual_review', 'rejected'] as const;
const FIRST = ['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John', 'Radia', 'Ken'];
const LAST = ['Lovelace', 'Turing', 'Hopper', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Backus', 'Perlman', 'Thompson'];

/** A timestamp `index` steps into the last two years, in the sandbox's seconds form. */
function createdAt(index: number, of: number): string {
  const ms = Date.now() - 730 * DAY_MS + Math.floor((index / of) * 729 * DAY_MS);
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The book in a sandbox data file: the sandbox seeds it (so every other record is as usual),
 * then the 10,000 applications, 12,000 people and 2,000 businesses go into its record table,
 * each made from a seeded record of its kind (every field the real service sends) with new ids,
 * names and creation times spread over two years.
 */
export async function seedBook(dataFile: string, scale = 1): Promise<void> {
  const seeded = await startSandbox({ port: 0, dataFile, accounts: 1, pendingTransactionsPerAccount: 10 });
  await seeded.close();
  const database = new DatabaseSync(dataFile);
  try {
    const template = (kind: string, where = ''): Record<string, unknown> => {
      const row = database.prepare(`SELECT body FROM record WHERE kind = ? ${where} LIMIT 1`).get(kind) as
        { body: string } | undefined;
      if (row === undefined) throw new Error(`the sandbox seeded no ${kind}`);
      return JSON.parse(row.body) as Record<string, unknown>;
    };
    const personalApplication = template('account_application', `AND body LIKE '%"ownership_type":"personal"%'`);
    const businessApplication = template('account_application', `AND body LIKE '%"ownership_type":"business"%'`);
    const person = template('person_application');
    const business = template('business_application');
    const insert = database.prepare('INSERT INTO record (kind, id, created_at, body) VALUES (?, ?, ?, ?)');
    const put = (kind: string, body: Record<string, unknown>): void => {
      insert.run(kind, String(body['id']), String(body['created_at']), JSON.stringify(body));
    };
    database.exec('BEGIN');
    const personal = Math.round(PERSONAL * scale);
    const total = Math.round(APPLICATIONS * scale);
    const seconds = Math.round(SECOND_SIGNERS * scale);
    const people = Array.from({ length: personal + seconds }, () => freshId('personApplication'));
    people.forEach((id, index) => {
      const first = FIRST[index % FIRST.length] ?? 'Ada';
      const last = LAST[Math.floor(index / FIRST.length) % LAST.length] ?? 'Lovelace';
      const created = createdAt(index, people.length);
      put('person_application', {
        ...person,
        id,
        first_name: first,
        last_name: last,
        email_address: `${first}.${last}.${String(index)}@example.com`.toLowerCase(),
        created_at: created,
        updated_at: created,
      });
    });
    for (let index = 0; index < total; index += 1) {
      const created = createdAt(index, total);
      const status = STATUSES[index % STATUSES.length] ?? 'submitted';
      const base = { account_id: null, account_number: null, status, created_at: created, updated_at: created };
      if (index < personal) {
        const primary = people[index] ?? '';
        const second = index < seconds ? people[personal + index] : undefined;
        put('account_application', {
          ...personalApplication,
          ...base,
          id: freshId('accountApplication'),
          primary_person_application_id: primary,
          person_applications: [
            { id: primary, roles: ['owner', 'signer'] },
            ...(second === undefined ? [] : [{ id: second, roles: ['signer'] }]),
          ],
        });
      } else {
        const owner = people[(index - personal) * 4] ?? '';
        const businessId = freshId('businessApplication');
        put('business_application', {
          ...business,
          id: businessId,
          person_applications: [
            { id: owner, roles: ['control_person', 'signer'], ownership_percentage: 100, title: 'Owner' },
          ],
          created_at: created,
          updated_at: created,
        });
        put('account_application', {
          ...businessApplication,
          ...base,
          id: freshId('accountApplication'),
          primary_person_application_id: owner,
          business_application_id: businessId,
          person_applications: null,
        });
      }
    }
    database.exec('COMMIT');
  } finally {
    database.close();
  }
}

interface Logged {
  start: number;
  end: number;
  status: number;
  path: string;
}

/** The proxy's log lines written since `offset` (the requests of one phase). */
function loggedSince(logFile: string, offset: number): Logged[] {
  return readFileSync(logFile, 'utf8')
    .slice(offset)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [start = '0', end = '0', status = '0', , path = '/'] = line.split(' ');
      return { start: Number(start), end: Number(end), status: Number(status), path };
    });
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Syncs the book into a new cache in `folder`; its seconds, what it wrote and the requests it made. */
async function syncBook(
  far: SandboxChild,
  folder: string,
  logFile: string,
): Promise<{ seconds: number; written: number; requests: Logged[]; resync: Logged[] }> {
  const services = await LedgerServices.open({
    dataFolder: folder,
    secretStore: new InMemorySecretStore(),
    profileStorage: new InMemoryProfileStorage(),
  });
  try {
    const profile = await services.addProfile(
      { name: 'Bench', baseUrl: far.baseUrl, authScheme: 'basic', keyId: far.keyId },
      far.keySecret,
    );
    const offset = sizeOf(logFile);
    const started = performance.now();
    const outcome = await services.sync.start({ kind: 'applications', profileId: profile.id }).done;
    const seconds = (performance.now() - started) / 1000;
    if (outcome.state !== 'done') throw new Error(`the book sync ended ${outcome.state}: ${outcome.error ?? ''}`);
    const requests = loggedSince(logFile, offset);
    // Then again with nothing new at the bank: how many requests a resync makes.
    const before = sizeOf(logFile);
    const again = await services.sync.start({ kind: 'applications', profileId: profile.id }).done;
    if (again.state !== 'done') throw new Error(`the resync ended ${again.state}: ${again.error ?? ''}`);
    return { seconds, written: outcome.written, requests, resync: loggedSince(logFile, before) };
  } finally {
    await services.close();
  }
}

/** The same requests made again through the proxy, `atOnce` at a time, each answer read; seconds. */
async function replay(far: SandboxChild, requests: readonly Logged[], atOnce: number): Promise<number> {
  const authorization = `Basic ${Buffer.from(`${far.keyId}:${far.keySecret}`).toString('base64')}`;
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < requests.length) {
      const request = requests[next];
      next += 1;
      if (request === undefined) return;
      const answer = await fetch(far.baseUrl + request.path, { headers: { authorization } });
      const text = await answer.text();
      if (answer.status === 200) JSON.parse(text);
    }
  };
  await Promise.all(Array.from({ length: atOnce }, worker));
  return (performance.now() - started) / 1000;
}

/** Which list (or single fetch) a request belongs to. */
function phaseOf(path: string): string {
  const bare = path.split('?')[0] ?? path;
  const parts = bare.split('/').filter(Boolean);
  return parts.length > 2 ? `${parts[1] ?? ''} one by one` : `${parts[1] ?? bare} list`;
}

function phases(requests: readonly Logged[]): BenchFigure[] {
  const byPhase = new Map<string, Logged[]>();
  for (const request of requests) {
    const phase = phaseOf(request.path);
    byPhase.set(phase, [...(byPhase.get(phase) ?? []), request]);
  }
  return [...byPhase.entries()].map(([phase, logged]) => {
    const first = Math.min(...logged.map((request) => request.start));
    const last = Math.max(...logged.map((request) => request.end));
    return {
      name: `sync phase ${phase}: first request to last answer (${String(logged.length)} requests)`,
      value: last - first,
      unit: 'ms',
    };
  });
}

const applicationBookBenchmark: Benchmark = {
  title: `Application book sync: ${APPLICATIONS.toLocaleString('en-US')} applications and ${PEOPLE.toLocaleString('en-US')} people from a bank ${String(DELAY_MS)} ms away`,
  async run(): Promise<BenchFigure[]> {
    const temp = temporaryFolder('ledgerdesk-bench-book-');
    const dataFile = join(temp.folder, 'bank.db');
    const logFile = join(temp.folder, 'requests.log');
    await seedBook(dataFile);
    const { started, child } = await startChild(['src/sandbox/cli.ts', '--json', '--quiet', '--data', dataFile]);
    const bank = started as { baseUrl: string; keyId: string; keySecret: string };
    const sandbox: SandboxChild = { ...bank, account: '', process: child };
    const proxy = await startChild([
      'tests/bench/latencyProxy.ts',
      '--target',
      bank.baseUrl,
      '--delay-ms',
      String(DELAY_MS),
      '--log',
      logFile,
    ]);
    const far: SandboxChild = {
      ...sandbox,
      baseUrl: (proxy.started as { baseUrl: string }).baseUrl,
      process: proxy.child,
    };
    try {
      const syncA = await syncBook(far, join(temp.folder, 'a'), logFile);
      const walkA = await replay(far, syncA.requests, 1);
      const syncB = await syncBook(far, join(temp.folder, 'b'), logFile);
      const walkB = await replay(far, syncB.requests, 1);
      const parallelB = await replay(far, syncB.requests, PARALLEL_REPLAY);
      const records = syncB.written;
      if (records < APPLICATIONS + PEOPLE + BUSINESSES) {
        throw new Error(`the sync wrote ${String(records)} records, fewer than the book holds`);
      }
      const syncRate = (records / syncA.seconds + records / syncB.seconds) / 2;
      const walkRate = (records / walkA + records / walkB) / 2;
      process.stdout.write(
        `  sync A ${syncA.seconds.toFixed(2)} s (${String(syncA.requests.length)} requests), walk A ${walkA.toFixed(2)} s; ` +
          `sync B ${syncB.seconds.toFixed(2)} s (${String(syncB.requests.length)} requests), walk B ${walkB.toFixed(2)} s; ` +
          `same requests ${String(PARALLEL_REPLAY)} at once ${parallelB.toFixed(2)} s\n`,
      );
      return [
        {
          name: `book sync (${records.toLocaleString('en-US')} records: applications, people, businesses), bank ${String(DELAY_MS)} ms away`,
          value: syncRate,
          unit: 'records/s',
          baseline: { name: 'the same requests made one after another, nothing kept', value: walkRate },
          target: '≥ 5× the sequential walk',
          met: syncRate >= 5 * walkRate,
        },
        {
          name: `the same requests ${String(PARALLEL_REPLAY)} at once, nothing kept (the sync with writing free)`,
          value: records / parallelB,
          unit: 'records/s',
          baseline: { name: 'the same requests made one after another, nothing kept', value: walkRate },
        },
        ...phases(syncB.requests),
        {
          name: 'resync with nothing new: requests made',
          value: syncB.resync.length,
          unit: 'requests',
          baseline: { name: 'applicants in the book (people and businesses)', value: PEOPLE + BUSINESSES },
        },
      ];
    } finally {
      await stopSandboxProcess(far);
      await stopSandboxProcess(sandbox);
      temp.remove();
    }
  },
};

export default [applicationBookBenchmark];
