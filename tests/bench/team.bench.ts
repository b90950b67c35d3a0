/**
 * `npm run bench -- team`: team review on a real PostgreSQL (a throwaway cluster), with the
 * database behind a relay on loopback that holds every chunk back 25 ms each way (a 50 ms
 * round trip, measured below as the baseline `SELECT 1`). The same is done with the build
 * af86022 (teamBaseline.ts: its own code, from a checkout beside this one), in the same run.
 *   1. Pushing 10,000 queued proposals (each with a sealed note and a signature): target ≤ 5 s.
 *   2. A second laptop pulling, verifying (chain, hashes, signatures) and re-deciding them by
 *      the team's rules (issue 35), and applying them page by page to its SQLite mirror: target
 *      ≤ 1.3× af86022's pull of the same 10,000 (which did not re-decide), two pulls of each
 *      build in turns (af86022, this, af86022, this).
 *   3. The server's CPU per pushed event (the backend's utime + stime from /proc).
 *   4. A new laptop verifying 1,000,000 events: 20,000 synthetic signed events verified as a
 *      pull does (pages, signatures on the thread pool) against the same events one at a time
 *      on one thread (LEDGERDESK_BENCH_TEAM_VERIFY=N for another size), projected to
 *      1,000,000; the projection is said to be one.
 * No figure here is asserted by a test: targets are reported, met or not.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { adminUrl, startThrowawayCluster } from '../../scripts/postgres/throwawayCluster.ts';
import { ChainVerifier, fixedSigners } from '../../src/main/services/team/chainVerifier.ts';
import { generateOfficerKeys, signIntent } from '../../src/main/services/team/crypto/officerKeys.ts';
import {
  chainHash,
  intentBytes,
  TEAM_GENESIS,
  type TeamEventRow,
  type TeamIntent,
} from '../../src/main/services/team/crypto/teamCanonical.ts';
import { TeamSession } from '../../src/main/services/team/teamSession.ts';
import type { PullReport, PushReport } from '../../src/main/services/team/teamSync.ts';
import { teamInit } from '../../src/main/services/team/teamInit.ts';
import { teamJoin } from '../../src/main/services/team/teamJoin.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { openCacheDatabase } from '../support/team/teamDatabase.ts';
import { startTcpProxy } from '../support/team/tcpProxy.ts';
import type { BenchFigure, Benchmark } from './benchmark.ts';
import { temporaryFolder } from './sandboxChild.ts';
import { join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { baselineCheckout, type BaselineCheckout } from './teamBaseline.ts';

const EVENTS = 10_000;
const VERIFY = Number(process.env['LEDGERDESK_BENCH_TEAM_VERIFY'] ?? 20_000);
const ONE_WAY_DELAY_MS = 25;

function backendCpuMs(pid: number): number {
  const fields =
    readFileSync(`/proc/${String(pid)}/stat`, 'utf8')
      .split(') ')[1]
      ?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after "pid (comm) ".
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

interface Pullable {
  sync: {
    pull(): Promise<{ pulled: number; pages: number; phases: Record<string, number> }>;
    push(): Promise<unknown>;
  };
  desk: { act(input: unknown): Promise<unknown> };
  connection: { client(): Promise<pg.Client> };
  close(): Promise<void>;
}

/** One team (a lead and two officers' laptops, through the relay) of this build or of the baseline. */
async function teamOf(
  build: 'this' | 'af86022',
  cluster: { caPem: string },
  url: string,
  folder: string,
  proxyPort: number,
  baseline: BaselineCheckout,
): Promise<Pullable[]> {
  const login = (name: string) => `${build === 'this' ? 'new' : 'old'}_${name}`;
  const officers = [login('alice'), login('bob'), login('carol')];
  const out = join(folder, build);
  mkdirSync(out);
  type Opener = (data: string, store: unknown, database: unknown) => Pullable | null;
  const sessions: { data: string; store: unknown; database: unknown }[] = [];
  let open: Opener;
  if (build === 'this') {
    const lead = { data: join(out, officers[0] ?? ''), store: new InMemorySecretStore() };
    const database = openCacheDatabase(lead.data);
    const init = await teamInit({
      adminUrl: url,
      caPem: cluster.caPem,
      workspace: 'bench',
      officers,
      outFolder: out,
      laptop: { dataFolder: lead.data, secretStore: lead.store, database },
    });
    sessions.push({ ...lead, database });
    for (const invite of init.invites) {
      const data = join(out, invite.login);
      const joined = { data, store: new InMemorySecretStore(), database: openCacheDatabase(data) };
      await teamJoin({
        inviteFile: invite.file,
        dataFolder: data,
        secretStore: joined.store,
        database: joined.database,
      });
      sessions.push(joined);
    }
    open = (data, store, database) =>
      TeamSession.open({
        dataFolder: data,
        secretStore: store as InMemorySecretStore,
        database: database as DatabaseSync,
      });
  } else {
    const old = {
      init: await baseline.load<{
        teamInit: (o: unknown) => Promise<{ invites: { login: string; file: string }[] }>;
      }>('src/main/services/team/teamInit.ts'),
      join: await baseline.load<{
        teamJoin: (o: unknown) => Promise<unknown>;
      }>('src/main/services/team/teamJoin.ts'),
      session: await baseline.load<{
        TeamSession: { open(o: unknown): Pullable | null };
      }>('src/main/services/team/teamSession.ts'),
      store: await baseline.load<{
        InMemorySecretStore: new () => unknown;
      }>('src/main/services/credentials/secretStore.ts'),
      cache: await baseline.load<{
        CACHE_MIGRATIONS: unknown;
        CACHE_MIGRATIONS_TABLE: string;
      }>('src/main/services/cache/cacheMigrations.ts'),
      migrations: await baseline.load<{
        applyMigrations: (d: unknown, m: unknown, t: string) => void;
      }>('src/main/services/cache/migrations.ts'),
    };
    const init = await old.init.teamInit({
      adminUrl: url,
      caPem: cluster.caPem,
      workspace: 'bench',
      officers,
      outFolder: out,
    });
    for (const invite of init.invites) {
      const data = join(out, invite.login);
      mkdirSync(data, { recursive: true });
      const database = new DatabaseSync(join(data, 'cache.db'));
      database.exec('PRAGMA journal_mode = WAL');
      old.migrations.applyMigrations(database, old.cache.CACHE_MIGRATIONS, old.cache.CACHE_MIGRATIONS_TABLE);
      const store = new old.store.InMemorySecretStore();
      await old.join.teamJoin({ inviteFile: invite.file, dataFolder: data, secretStore: store, database });
      sessions.push({ data, store, database });
    }
    open = (data, store, database) => old.session.TeamSession.open({ dataFolder: data, secretStore: store, database });
  }
  const laptops: Pullable[] = [];
  for (const { data, store, database } of sessions) {
    // From here on the laptop reaches the server through the 50 ms relay.
    const settingsFile = join(data, 'team.json');
    const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as { server: { port: number } };
    settings.server.port = proxyPort;
    writeFileSync(settingsFile, JSON.stringify(settings));
    const session = open(data, store, database);
    if (session === null) throw new Error('no team settings');
    laptops.push(session);
  }
  return laptops;
}

async function queueProposals(lead: Pullable): Promise<void> {
  for (let index = 0; index < EVENTS; index += 1)
    await lead.desk.act({
      kind: 'application',
      ref: `app_${String(index)}`,
      action: 'propose',
      disposition: 'flagged',
      note: `reason ${String(index)}`,
    });
}

async function timedPull(laptop: Pullable) {
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const pull = await laptop.sync.pull();
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuStarted);
  if (pull.pulled < EVENTS) throw new Error(`pull: ${JSON.stringify(pull)}`);
  return { pull, ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

async function pushAndPull(): Promise<BenchFigure[]> {
  const cluster = await startThrowawayCluster();
  const temporary = temporaryFolder('ledgerdesk-team-bench-');
  const folder = temporary.folder;
  const baseline = baselineCheckout();
  try {
    const admin = new pg.Client({ connectionString: adminUrl(cluster), ssl: { ca: cluster.caPem } });
    await admin.connect();
    await admin.query('CREATE DATABASE bench_this');
    await admin.query('CREATE DATABASE bench_af86022');
    await admin.end();
    const proxy = await startTcpProxy(cluster.port, { delayMs: ONE_WAY_DELAY_MS });
    const [alice, bob, carol] = (await teamOf(
      'this',
      cluster,
      adminUrl(cluster, 'bench_this'),
      folder,
      proxy.port,
      baseline,
    )) as [Pullable, Pullable, Pullable];
    const [oldAlice, oldBob, oldCarol] = (await teamOf(
      'af86022',
      cluster,
      adminUrl(cluster, 'bench_af86022'),
      folder,
      proxy.port,
      baseline,
    )) as [Pullable, Pullable, Pullable];
    const client = await alice.connection.client();
    const rounds: number[] = [];
    for (let index = 0; index < 10; index += 1) {
      const started = performance.now();
      await client.query('SELECT 1');
      rounds.push(performance.now() - started);
    }
    const roundTrip = rounds.sort((a, b) => a - b)[5] ?? Number.NaN;
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0;

    await queueProposals(alice);
    await queueProposals(oldAlice);
    // The joins and keys, before the measured pulls.
    for (const laptop of [bob, carol, oldBob, oldCarol]) await laptop.sync.pull();
    const cpuBefore = backendCpuMs(pid);
    const pushStarted = performance.now();
    const pushCpuStarted = process.cpuUsage();
    const push = (await alice.sync.push()) as PushReport;
    const pushMs = performance.now() - pushStarted;
    const pushCpu = process.cpuUsage(pushCpuStarted);
    const serverCpuMs = backendCpuMs(pid) - cpuBefore;
    if (push.ok !== EVENTS) throw new Error(`push: ${JSON.stringify(push)}`);
    const oldPushStarted = performance.now();
    await oldAlice.sync.push();
    const oldPushMs = performance.now() - oldPushStarted;

    // Each build pulls twice (two officers' laptops), in turns, so the machine's load falls on both.
    const bobClient = await bob.connection.client();
    const bobPid = (await bobClient.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0;
    const old1 = await timedPull(oldBob);
    const bobCpuBefore = backendCpuMs(bobPid);
    const new1 = await timedPull(bob);
    const pullServerCpuMs = backendCpuMs(bobPid) - bobCpuBefore;
    const old2 = await timedPull(oldCarol);
    const new2 = await timedPull(carol);
    const pull = new1.pull as PullReport;
    for (const laptop of [alice, bob, carol, oldAlice, oldBob, oldCarol]) await laptop.close();
    await proxy.close();
    const pullRatio = mean([new1.ms, new2.ms]) / mean([old1.ms, old2.ms]);
    return [
      { name: 'round trip through the relay (SELECT 1, median)', value: roundTrip, unit: 'ms' },
      {
        name: `push ${EVENTS.toLocaleString('en-US')} events (${String(push.batches)} batches)`,
        value: pushMs / 1000,
        unit: 's',
        target: '≤ 5 s',
        met: pushMs <= 5_000,
        baseline: { name: 'af86022, same run', value: oldPushMs / 1000 },
      },
      { name: 'push: reading the outbox', value: push.phases.outbox / 1000, unit: 's' },
      { name: 'push: waiting for team.push (round trip + server)', value: push.phases.server / 1000, unit: 's' },
      { name: 'push: recording the answers', value: push.phases.answers / 1000, unit: 's' },
      { name: 'laptop CPU of that push', value: (pushCpu.user + pushCpu.system) / 1000 / 1000, unit: 's' },
      {
        name: `pull + verify + re-decide + apply ${pull.pulled.toLocaleString('en-US')} events, mean of 2 (this build vs af86022)`,
        value: mean([new1.ms, new2.ms]) / 1000,
        unit: 's',
        target: '≤ 1.3× af86022',
        met: pullRatio <= 1.3,
        baseline: {
          name: 'af86022: pull + verify + apply, mean of 2, same run',
          value: mean([old1.ms, old2.ms]) / 1000,
        },
      },
      {
        name: 'the four pulls in turn (af86022, this, af86022, this)',
        value: new2.ms / 1000,
        unit: `s (${[old1, new1, old2, new2].map((run) => (run.ms / 1000).toFixed(2)).join(' / ')})`,
      },
      {
        name: 'laptop CPU of a pull (every thread), mean of 2: this build vs af86022',
        value: mean([new1.cpuMs, new2.cpuMs]) / 1000,
        unit: 's',
        baseline: { name: 'af86022', value: mean([old1.cpuMs, old2.cpuMs]) / 1000 },
      },
      { name: 'pull: waiting for pages (not hidden by verifying)', value: pull.phases.waiting / 1000, unit: 's' },
      {
        name: 'pull: verifying (chain, rules and signatures)',
        value: pull.phases.verifying / 1000,
        unit: 's',
      },
      { name: 'pull: applying to the mirror (SQLite)', value: pull.phases.applying / 1000, unit: 's' },
      { name: 'pull: moving the anchor (keychain)', value: pull.phases.anchoring / 1000, unit: 's' },
      { name: 'server CPU of that pull (reading the pages)', value: pullServerCpuMs / 1000, unit: 's' },
      { name: 'server CPU per pushed event (team.push)', value: serverCpuMs / EVENTS, unit: 'ms' },
    ];
  } finally {
    await cluster.stop();
    temporary.remove();
    baseline.remove();
  }
}

async function verifyMany(): Promise<BenchFigure[]> {
  const keys = generateOfficerKeys();
  const events: TeamEventRow[] = [];
  let previous: Buffer = TEAM_GENESIS;
  const sealed = Buffer.alloc(58, 7);
  for (let seq = 1; seq <= VERIFY; seq += 1) {
    const intent: TeamIntent = {
      id: randomUUID(),
      workspace: 'bench',
      kind: 'application',
      ref: `app_${String(seq)}`,
      action: 'propose',
      disposition: 'flagged',
      assignee: null,
      baseVersion: 0,
      keyVersion: 1,
      clientAt: '2026-11-26T10:00:00.000Z',
      sealed,
    };
    const partial = {
      ...intent,
      seq,
      officer: 'alice',
      at: '2026-11-26T10:00:01.000001Z',
      result: 'ok' as const,
      detail: null,
      newVersion: 1,
      newState: 'flagged',
      signature: signIntent(keys.signPrivate, intentBytes(intent)),
    };
    const hash = chainHash(previous, partial);
    events.push({ ...partial, prevHash: previous, hash });
    previous = hash;
  }
  const signers = new Map([['alice', keys.signPublic]]);
  // Baseline: one event at a time on this thread (the verifier before this round).
  const serial = new ChainVerifier({ seq: 0, hash: TEAM_GENESIS }, fixedSigners(signers));
  let started = performance.now();
  for (const event of events) serial.accept(event);
  const serialMs = performance.now() - started;
  // As a pull does it: pages of 5,000, the chain on this thread, signatures on the thread pool.
  const pooled = new ChainVerifier({ seq: 0, hash: TEAM_GENESIS }, fixedSigners(signers));
  started = performance.now();
  const cpuStarted = process.cpuUsage();
  for (let from = 0; from < events.length; from += 5_000) await pooled.acceptPage(events.slice(from, from + 5_000));
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuStarted);
  const projected = (ms / VERIFY) * 1_000_000;
  return [
    {
      name: `verify ${VERIFY.toLocaleString('en-US')} events (chain + hash + Ed25519), pages on the thread pool`,
      value: ms / 1000,
      unit: 's',
      baseline: { name: 'one at a time on one thread', value: serialMs / 1000 },
    },
    { name: 'CPU of that verification (every thread)', value: (cpu.user + cpu.system) / 1000 / 1000, unit: 's' },
    { name: 'cores this process may use', value: availableParallelism(), unit: 'cores' },
    {
      name: `projected: a new laptop verifying 1,000,000 events (${String(availableParallelism())} cores, excluding the download)`,
      value: projected / 1000,
      unit: 's',
      target: '≤ 90 s',
      met: projected <= 90_000,
      baseline: { name: 'one thread', value: (serialMs / VERIFY) * 1_000 },
    },
  ];
}

/** LEDGERDESK_BENCH_TEAM_ONLY=verify runs only the second part (no cluster). */
const only = process.env['LEDGERDESK_BENCH_TEAM_ONLY'];
const benchmarks: Benchmark[] = [
  ...(only === 'verify' ? [] : [{ title: 'Team review: push and pull through a 50 ms round trip', run: pushAndPull }]),
  { title: 'Team review: verifying a long history', run: verifyMany },
];
export default benchmarks;
