/**
 * `npm run bench -- team`: team review on a real PostgreSQL (a throwaway cluster), with the
 * database behind a relay on loopback that holds every chunk back 25 ms each way (a 50 ms
 * round trip, measured below as the baseline `SELECT 1`).
 *   1. Pushing 10,000 queued proposals (each with a sealed note and a signature): target ≤ 5 s.
 *   2. A second laptop pulling and verifying them (chain, hashes, signatures) and applying
 *      them page by page to its SQLite mirror: target ≤ 5 s.
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
import { migrateTeamSchema } from '../../src/main/services/team/server/teamMigrate.ts';
import { TeamSession } from '../../src/main/services/team/teamSession.ts';
import { teamInit } from '../../src/main/services/team/teamInit.ts';
import { teamJoin } from '../../src/main/services/team/teamJoin.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { openCacheDatabase } from '../support/team/teamDatabase.ts';
import { startTcpProxy } from '../support/team/tcpProxy.ts';
import type { BenchFigure, Benchmark } from './benchmark.ts';
import { temporaryFolder } from './sandboxChild.ts';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import pg from 'pg';

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

async function pushAndPull(): Promise<BenchFigure[]> {
  const cluster = await startThrowawayCluster();
  const temporary = temporaryFolder('ledgerdesk-team-bench-');
  const folder = temporary.folder;
  try {
    const admin = new pg.Client({ connectionString: adminUrl(cluster), ssl: { ca: cluster.caPem } });
    await admin.connect();
    await migrateTeamSchema(admin);
    await admin.end();
    const init = await teamInit({
      adminUrl: adminUrl(cluster),
      caPem: cluster.caPem,
      workspace: 'bench',
      officers: ['alice', 'bob'],
      outFolder: folder,
    });
    const proxy = await startTcpProxy(cluster.port, { delayMs: ONE_WAY_DELAY_MS });
    const laptops = [];
    for (const invite of init.invites) {
      const data = join(folder, invite.login);
      const database = openCacheDatabase(data);
      const secretStore = new InMemorySecretStore();
      await teamJoin({ inviteFile: invite.file, dataFolder: data, secretStore, database });
      // From here on the laptop reaches the server through the 50 ms relay.
      const settingsFile = join(data, 'team.json');
      const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as { server: { port: number } };
      settings.server.port = proxy.port;
      writeFileSync(settingsFile, JSON.stringify(settings));
      const session = TeamSession.open({ dataFolder: data, secretStore, database });
      if (session === null) throw new Error('no team settings');
      laptops.push(session);
    }
    const [alice, bob] = laptops as [TeamSession, TeamSession];
    const client = await alice.connection.client();
    const rounds: number[] = [];
    for (let index = 0; index < 10; index += 1) {
      const started = performance.now();
      await client.query('SELECT 1');
      rounds.push(performance.now() - started);
    }
    const roundTrip = rounds.sort((a, b) => a - b)[5] ?? Number.NaN;
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0;

    for (let index = 0; index < EVENTS; index += 1)
      await alice.desk.act({
        kind: 'application',
        ref: `app_${String(index)}`,
        action: 'propose',
        disposition: 'flagged',
        note: `reason ${String(index)}`,
      });
    await bob.sync.pull(); // the join events and keys, before the measured pull
    const cpuBefore = backendCpuMs(pid);
    const pushStarted = performance.now();
    const pushCpuStarted = process.cpuUsage();
    const push = await alice.sync.push();
    const pushMs = performance.now() - pushStarted;
    const pushCpu = process.cpuUsage(pushCpuStarted);
    const serverCpuMs = backendCpuMs(pid) - cpuBefore;
    if (push.ok !== EVENTS) throw new Error(`push: ${JSON.stringify(push)}`);

    const bobClient = await bob.connection.client();
    const bobPid = (await bobClient.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0;
    const bobCpuBefore = backendCpuMs(bobPid);
    const pullStarted = performance.now();
    const cpuStarted = process.cpuUsage();
    const pull = await bob.sync.pull();
    const pullMs = performance.now() - pullStarted;
    const pullCpu = process.cpuUsage(cpuStarted);
    const pullServerCpuMs = backendCpuMs(bobPid) - bobCpuBefore;
    if (pull.pulled < EVENTS) throw new Error(`pull: ${JSON.stringify(pull)}`);
    for (const session of laptops) await session.close();
    await proxy.close();
    return [
      { name: 'round trip through the relay (SELECT 1, median)', value: roundTrip, unit: 'ms' },
      {
        name: `push ${EVENTS.toLocaleString('en-US')} events (${String(push.batches)} batches)`,
        value: pushMs / 1000,
        unit: 's',
        target: '≤ 5 s',
        met: pushMs <= 5_000,
        baseline: { name: 'round trips × batches', value: (roundTrip * push.batches) / 1000 },
      },
      { name: 'push: reading the outbox', value: push.phases.outbox / 1000, unit: 's' },
      { name: 'push: waiting for team.push (round trip + server)', value: push.phases.server / 1000, unit: 's' },
      { name: 'push: recording the answers', value: push.phases.answers / 1000, unit: 's' },
      { name: 'laptop CPU of that push', value: (pushCpu.user + pushCpu.system) / 1000 / 1000, unit: 's' },
      {
        name: `pull + verify + apply ${pull.pulled.toLocaleString('en-US')} events (${String(pull.pages)} pages)`,
        value: pullMs / 1000,
        unit: 's',
        target: '≤ 5 s',
        met: pullMs <= 5_000,
      },
      {
        name: 'laptop CPU of that pull (every thread)',
        value: (pullCpu.user + pullCpu.system) / 1000 / 1000,
        unit: 's',
      },
      { name: 'pull: waiting for pages (not hidden by verifying)', value: pull.phases.waiting / 1000, unit: 's' },
      { name: 'pull: verifying (chain here, signatures on the pool)', value: pull.phases.verifying / 1000, unit: 's' },
      { name: 'pull: applying to the mirror (SQLite)', value: pull.phases.applying / 1000, unit: 's' },
      { name: 'pull: moving the anchor (keychain)', value: pull.phases.anchoring / 1000, unit: 's' },
      { name: 'server CPU of that pull (reading the pages)', value: pullServerCpuMs / 1000, unit: 's' },
      { name: 'server CPU per pushed event (team.push)', value: serverCpuMs / EVENTS, unit: 'ms' },
    ];
  } finally {
    await cluster.stop();
    temporary.remove();
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
