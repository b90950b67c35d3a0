/**
 * Settings › Local sandbox bank › Restart, against the real thing: the app started as the
 * desktop shell starts it (startLedgerdesk; a Node child for Electron's utilityProcess), its
 * sandbox process killed from outside, the window told in people's words where to go, then
 * restarted through the router on its own data file: a new loopback address, the same
 * accounts, the Online badge back, a sync working again, and the restart in the audit log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startLedgerdesk, type RunningLedgerdesk } from '../../../src/main/app/startLedgerdesk.ts';
import type { SandboxChild } from '../../../src/main/app/embeddedSandbox.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import { EMBEDDED_SANDBOX_PROFILE_ID } from '../../../src/main/services/profiles/profile.ts';
import { forkSandboxChild } from '../../../src/main/web/forkSandbox.ts';
import { SANDBOX_RESTART_ACTION, pointsToSandboxRestart } from '../../../src/shared/ipc/domains/embeddedSandbox.ts';
import { eventChannel } from '../../../src/shared/ipc/contract.ts';
import { isLedgerdeskError, type SyncProgress } from '../../../src/shared/ipc/index.ts';
import { windowApi } from '../../support/testServices.ts';

const OWN_WINDOW = 7;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
let folder: string | null = null;
let app: RunningLedgerdesk | null = null;

afterEach(async () => {
  await app?.stop();
  app = null;
  if (folder !== null) rmSync(folder, { recursive: true, force: true });
  folder = null;
});

/** The sandbox processes the app forked, newest last, so the test can end one as a crash would. */
function startApp(children: SandboxChild[], pushed: SyncProgress[]): Promise<RunningLedgerdesk> {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-sandbox-restart-'));
  const dataFolder = folder;
  return startLedgerdesk({
    dataFolder,
    shell: 'desktop',
    forkSandbox: () => {
      const child = forkSandboxChild();
      children.push(child);
      return child;
    },
    secretStore: new InMemorySecretStore(),
    settings: new FileProfileStorage(dataFolder),
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory keychain (tests)' }),
    app: { name: 'Ledgerdesk', version: '0.0.0-test', platform: process.platform },
    senderPolicy: { isOwnWindow: (id) => id === OWN_WINDOW, allowedOrigins: ['app://ledgerdesk'] },
    send: (channel, payload) => {
      if (channel === eventChannel('sync', 'progress')) pushed.push(payload as SyncProgress);
    },
    chooseSavePath: () => Promise.resolve(null),
    openExternal: () => false,
    environment: {},
    log: quiet,
  });
}

/** Waits (bounded in looks, not in time) until `check` holds. */
async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let look = 0; look < 3_000; look += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${what}: still not so after 3,000 looks`);
}

async function finished(read: () => Promise<SyncProgress | undefined>): Promise<SyncProgress | undefined> {
  for (let round = 0; round < 6_000; round += 1) {
    const job = await read();
    if (job === undefined || job.state !== 'running') return job;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the sync is still running after 6,000 looks');
}

describe('Restarting the embedded sandbox bank from Settings', () => {
  it('brings a killed sandbox back on its own data, and every error before it points to Settings', async () => {
    const children: SandboxChild[] = [];
    const pushed: SyncProgress[] = [];
    app = await startApp(children, pushed);
    /** The last state of a job, as the window was told it. */
    const lastOf = (job: SyncProgress): Promise<SyncProgress | undefined> =>
      finished(() => Promise.resolve([job, ...pushed.filter((entry) => entry.jobId === job.jobId)].at(-1)));
    const api = windowApi(app.router, OWN_WINDOW);
    await app.firstOpenSync;
    const before = await api.embeddedSandbox.status({});
    if (!before.running) throw new Error(`the sandbox did not start: ${before.problem}`);
    const accountsBefore = await api.accounts.list({ profileId: EMBEDDED_SANDBOX_PROFILE_ID });
    expect(accountsBefore.rows.length).toBeGreaterThan(0);

    // A crash: the process ends without being asked.
    expect(children).toHaveLength(1);
    children[0]?.kill();
    await eventually(async () => !(await api.embeddedSandbox.status({})).running, 'the sandbox is said stopped');
    const stopped = await api.embeddedSandbox.status({});
    expect(stopped).toMatchObject({ running: false, problem: expect.stringMatching(/stopped on its own/) as unknown });

    // The bank out of reach is said in people's words, and points to Settings. Sync is refused
    // at once with the reason (issue 38): no job is started to spin at 0 records.
    const refusal: unknown = await api.sync
      .start({ profileId: EMBEDDED_SANDBOX_PROFILE_ID, job: { kind: 'webhooks' } })
      .then(
        (job) => new Error(`a job was started: ${job.jobId} ${job.state}`),
        (reason: unknown) => reason,
      );
    if (!isLedgerdeskError(refusal)) throw refusal instanceof Error ? refusal : new Error(String(refusal));
    expect(refusal.code).toBe('offline');
    const failedSync = `${refusal.message} ${refusal.action ?? ''}`;
    expect(failedSync).toContain('Nothing was synced.');
    const jobs = (await api.sync.status({ profileId: EMBEDDED_SANDBOX_PROFILE_ID })).jobs;
    expect(jobs.filter((job) => job.kind === 'webhooks')).toEqual([]);
    const offline = await api.app.onlineStatus({ profileId: EMBEDDED_SANDBOX_PROFILE_ID });
    expect(offline.state).toBe('offline');
    expect(offline.reason).toBe(`The local sandbox bank is not running. ${SANDBOX_RESTART_ACTION}`);
    expect(pointsToSandboxRestart(offline.reason)).toBe(true);
    expect(failedSync).toContain('The local sandbox bank is not running');
    expect(failedSync).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);

    // Settings › Restart.
    const restarted = await api.embeddedSandbox.restart({});
    expect(restarted.answering).toBe(true);
    if (!restarted.state.running) throw new Error(`the sandbox did not start again: ${restarted.state.problem}`);
    expect(restarted.state.baseUrl).not.toBe(before.baseUrl);
    expect(children).toHaveLength(2);
    expect((await api.app.info({})).sandboxUrl).toBe(restarted.state.baseUrl);
    expect((await api.app.onlineStatus({ profileId: EMBEDDED_SANDBOX_PROFILE_ID })).state).toBe('online');

    // The same bank (its data file kept), reached again: a sync ends done.
    const job = await api.sync.start({ profileId: EMBEDDED_SANDBOX_PROFILE_ID, job: { kind: 'webhooks' } });
    const last = await lastOf(job);
    expect(last?.state).toBe('done');
    const accountsAfter = await api.accounts.list({ profileId: EMBEDDED_SANDBOX_PROFILE_ID });
    expect(accountsAfter.rows.map((row) => row.id).sort()).toEqual(accountsBefore.rows.map((row) => row.id).sort());

    // Recorded in the audit log, and a running sandbox restarts too (stopped first, then started).
    const audit = await api.audit.list({ action: 'sandbox.restart' });
    expect(audit.rows.map((row) => [row.action, row.result])).toContainEqual(['sandbox.restart', 'ok']);
    const again = await api.embeddedSandbox.restart({});
    expect(again.state.running).toBe(true);
    expect(children).toHaveLength(3);
  });
});
