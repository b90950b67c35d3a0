/**
 * "Sync the book" on the app's own local sandbox (issue 24): everything started as the desktop
 * app starts it (startLedgerdesk: the embedded sandbox in its own process, the services on a
 * fresh data folder, the first open's sync of pending transactions running in the background),
 * with only the Electron edge replaced (a Node child for the utilityProcess). A reported stall of
 * the book sync in this setup is checked here: the job started through the router beside the
 * first-open sync ends done, its last progress event is pushed to the window, and every
 * application the bank lists and every person and business they name is in the cache, in the
 * sandbox's own shapes and in the real service's lean ones.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startLedgerdesk, type RunningLedgerdesk } from '../../../src/main/app/startLedgerdesk.ts';
import { LEAN_SANDBOX_VARIABLE } from '../../../src/main/app/embeddedSandbox.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import { EMBEDDED_SANDBOX_PROFILE_ID } from '../../../src/main/services/profiles/profile.ts';
import { forkSandboxChild } from '../../../src/main/web/forkSandbox.ts';
import { eventChannel } from '../../../src/shared/ipc/contract.ts';
import type { SyncProgress } from '../../../src/shared/ipc/index.ts';
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

interface BankList {
  data: {
    id: string;
    primary_person_application_id?: string | null;
    person_applications?: unknown;
    business_application_id?: string | null;
  }[];
  page_next?: string | null;
}

/** Every account application the bank lists, walked by cursor, and the applicants they name. */
async function bookAtTheBank(
  baseUrl: string,
  keyId: string,
  keySecret: string,
): Promise<{ applications: Set<string>; applicants: Set<string> }> {
  const authorization = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;
  const applications = new Set<string>();
  const applicants = new Set<string>();
  let cursor: string | null = null;
  for (let page = 0; page < 200; page += 1) {
    const query: string = cursor === null ? '' : `&page_cursor=${encodeURIComponent(cursor)}`;
    const answer = await fetch(`${baseUrl}/apply/account_application?page_size=100${query}`, {
      headers: { authorization },
    });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as BankList;
    for (const application of body.data) {
      applications.add(application.id);
      if (typeof application.primary_person_application_id === 'string')
        applicants.add(application.primary_person_application_id);
      if (typeof application.business_application_id === 'string') applicants.add(application.business_application_id);
      if (Array.isArray(application.person_applications)) {
        for (const person of application.person_applications as unknown[]) {
          const id = typeof person === 'string' ? person : (person as { id?: unknown }).id;
          if (typeof id === 'string') applicants.add(id);
        }
      }
    }
    cursor = body.page_next ?? null;
    if (cursor === null) return { applications, applicants };
  }
  throw new Error('the bank listed more than 200 pages of applications');
}

async function start(lean: boolean, pushed: SyncProgress[]): Promise<RunningLedgerdesk> {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-embedded-book-'));
  const dataFolder = folder;
  return startLedgerdesk({
    dataFolder,
    shell: 'desktop',
    forkSandbox: forkSandboxChild,
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
    environment: lean ? { [LEAN_SANDBOX_VARIABLE]: '1' } : {},
    log: quiet,
  });
}

/** Waits (bounded in rounds, not in time) for the job to leave `running`. */
async function finished(read: () => Promise<SyncProgress | undefined>): Promise<SyncProgress | undefined> {
  for (let round = 0; round < 6_000; round += 1) {
    const job = await read();
    if (job === undefined || job.state !== 'running') return job;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the book sync is still running after 6,000 looks');
}

describe.each([
  { shapes: 'the sandbox’s own shapes', lean: false },
  { shapes: 'the real service’s lean shapes', lean: true },
])('Sync the book on the embedded sandbox ($shapes)', ({ lean }) => {
  it('ends done beside the first-open sync, with every application and applicant kept', async () => {
    const pushed: SyncProgress[] = [];
    app = await start(lean, pushed);
    const sandbox = app.sandbox;
    if (sandbox === null) throw new Error('the embedded sandbox did not start');
    const api = windowApi(app.router, OWN_WINDOW);
    const { activeProfileId } = await api.profiles.list({});
    expect(activeProfileId).toBe(EMBEDDED_SANDBOX_PROFILE_ID);

    // As a window would: Sync the book while the first open still syncs pending transactions.
    const started = await api.sync.start({ profileId: EMBEDDED_SANDBOX_PROFILE_ID, job: { kind: 'applications' } });
    expect(started.state).toBe('running');
    const firstOpen = await app.firstOpenSync;
    expect(firstOpen.started).toBe(true);

    const lastPushed = await finished(() =>
      Promise.resolve(pushed.filter((progress) => progress.jobId === started.jobId).at(-1)),
    );
    expect(lastPushed?.state).toBe('done');
    expect(lastPushed?.error).toBeUndefined();
    const { jobs } = await api.sync.status({ profileId: EMBEDDED_SANDBOX_PROFILE_ID });
    expect(jobs.filter((job) => job.jobId === started.jobId && job.state === 'running')).toEqual([]);

    const bank = await bookAtTheBank(sandbox.baseUrl, sandbox.keyId, sandbox.keySecret);
    expect(bank.applications.size).toBeGreaterThan(1);
    const cached = await api.accountApplications.list({ profileId: EMBEDDED_SANDBOX_PROFILE_ID, limit: 500 });
    expect(new Set(cached.rows.map((row) => row.id))).toEqual(bank.applications);
    for (const applicationId of bank.applications) {
      const named = await api.applicants.ofApplication({ profileId: EMBEDDED_SANDBOX_PROFILE_ID, applicationId });
      for (const row of named.rows) {
        expect(bank.applicants.has(row.applicantId)).toBe(true);
        expect(row.applicant, `${row.applicantId} of ${applicationId}`).not.toBeNull();
      }
    }

    // Again, with nothing new at the bank: it ends too, and keeps the same book.
    const again = await api.sync.start({ profileId: EMBEDDED_SANDBOX_PROFILE_ID, job: { kind: 'applications' } });
    const resynced = await finished(() =>
      Promise.resolve(pushed.filter((progress) => progress.jobId === again.jobId).at(-1) ?? again),
    );
    expect(resynced?.state).toBe('done');
    const after = await api.accountApplications.list({ profileId: EMBEDDED_SANDBOX_PROFILE_ID, limit: 500 });
    expect(after.rows.length).toBe(bank.applications.size);
  });
});
