/**
 * P1 of the af86022 review: a document preview (typically an applicant's ID scan: date of birth,
 * ID number, address) reached the window with no audit entry, though revealing one masked field
 * is audited. Every preview is now written to the audit chain, with its actor, before the file is
 * handed over: in the desktop app's path (the real router behind the bridge, as the Electron
 * preload calls it) and in web mode (the real web shell, over its socket). The sandbox bank's own
 * seeded people and their scans; a real cache file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import type { AuditEntry } from '../../src/shared/ipc/domains/audit.ts';
import { openSocket, signIn, SocketClient } from '../e2e/support/webClient.ts';
import { startWebModeApp, type WebModeApp } from '../e2e/support/webModeStart.ts';
import { startHarness, type Harness } from './support/harness.ts';

interface Bank {
  baseUrl: string;
  keyId: string;
  keySecret: string;
}

/** A person the bank holds with a scan, and an application naming them (found through the bank's own API). */
async function scannedApplicant(bank: Bank): Promise<{ application: string; applicant: string; document: string }> {
  const get = async <Answer>(path: string): Promise<Answer> => {
    const answer = await fetch(`${bank.baseUrl}${path}`, {
      headers: { authorization: `Basic ${Buffer.from(`${bank.keyId}:${bank.keySecret}`).toString('base64')}` },
    });
    expect(answer.status).toBe(200);
    return (await answer.json()) as Answer;
  };
  const people = await get<{ data: { id: string; document_ids?: string[] }[] }>(
    '/apply/person_application?page_size=1000',
  );
  const applications = await get<{ data: { id: string; primary_person_application_id: string }[] }>(
    '/apply/account_application?page_size=1000',
  );
  for (const person of people.data) {
    const document = person.document_ids?.[0];
    const application = applications.data.find((entry) => entry.primary_person_application_id === person.id);
    if (document !== undefined && application !== undefined) {
      return { application: application.id, applicant: person.id, document };
    }
  }
  throw new Error('the sandbox holds no person with a scan named by an application');
}

/** What a preview's entry must say: the act, whose scan, which document, from where, and who did it. */
function expectPreviewEntry(entry: AuditEntry | undefined, applicant: string, document: string, from: string): void {
  expect(entry?.action).toBe('document.preview');
  expect(entry?.result).toBe('ok');
  expect(entry?.target).toBe(`applicant:${applicant}`);
  expect(entry?.message).toContain(`previewed document ${document}`);
  expect(entry?.message).toContain(`from the ${from}`);
  expect(entry?.actor).toMatch(/^app instance \d+-[0-9a-f]{8}; OS user .+; reviewer #[0-9a-f]{12}$/);
}

describe('P1: every document preview is audited with its actor', () => {
  describe('the desktop app’s path (router and bridge)', () => {
    let folder: string;
    let sandbox: RunningSandbox;
    let harness: Harness;

    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-p1-desktop-'));
      sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 2 });
      harness = await startHarness(folder, sandbox, new InMemorySecretStore());
    });

    afterAll(async () => {
      await harness.stop();
      await sandbox.close();
      rmSync(folder, { recursive: true, force: true });
    });

    it('writes document.preview before the scan is shown, from the bank and then from the cache', async () => {
      const { api } = harness;
      const profileId = (await api.profiles.list()).activeProfileId ?? '';
      const scan = await scannedApplicant(sandbox);
      const job = await api.sync.start({ profileId, job: { kind: 'accountApplication', id: scan.application } });
      for (let round = 0; round < 400; round += 1) {
        const { jobs } = await api.sync.status({ profileId });
        if (!jobs.some((running) => running.jobId === job.jobId && running.state === 'running')) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const before = (await api.audit.list({ profileId, action: 'document.preview', limit: 10 })).rows;
      expect(before).toEqual([]);

      const first = await api.documentPreviews.get({
        profileId,
        applicantId: scan.applicant,
        documentId: scan.document,
      });
      expect(first.source).toBe('bank');
      const second = await api.documentPreviews.get({
        profileId,
        applicantId: scan.applicant,
        documentId: scan.document,
      });
      expect(second.source).toBe('cache');
      const entries = (await api.audit.list({ profileId, action: 'document.preview', limit: 10 })).rows;
      expect(entries).toHaveLength(2);
      // Newest first: the cached one, then the bank's.
      expectPreviewEntry(entries[1], scan.applicant, scan.document, 'bank');
      expectPreviewEntry(entries[0], scan.applicant, scan.document, 'offline cache');
      expect(entries[1]?.message).toContain(`${first.contentType}, ${String(first.byteLength)} bytes`);
      // A preview refused (a document the applicant does not name) hands nothing over and writes nothing.
      await expect(
        api.documentPreviews.get({ profileId, applicantId: scan.applicant, documentId: 'doc_not_named' }),
      ).rejects.toMatchObject({ code: 'not_found' });
      expect((await api.audit.list({ profileId, action: 'document.preview', limit: 10 })).rows).toHaveLength(2);
      // Chained like every other entry.
      expect((await api.audit.verify()).ok).toBe(true);
    });
  });

  describe('web mode (the web shell, over its socket)', () => {
    let folder: string;
    let app: WebModeApp;

    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-p1-web-'));
      app = await startWebModeApp(folder);
    });

    afterAll(async () => {
      await app.shell.stop();
      rmSync(folder, { recursive: true, force: true });
    });

    it('writes document.preview for a preview the page asked for', async () => {
      const sandbox = app.shell.ledgerdesk.sandbox;
      if (sandbox === null) throw new Error('the embedded sandbox is not running');
      const browser = await signIn(app.shell.entryUrl);
      const opened = await openSocket(app.shell.origin, {
        cookie: browser.cookie,
        tabKey: browser.tabKey,
        origin: app.shell.origin,
      });
      const client = new SocketClient(opened.socket as WebSocket);
      await client.hello('p1-web-session-0000000001');
      const profileId = 'local-sandbox';
      const scan = await scannedApplicant(sandbox);
      const started = await client.result(
        client.call('sync.start', { profileId, job: { kind: 'accountApplication', id: scan.application } }),
      );
      expect(started.ok, JSON.stringify(started.error)).toBe(true);
      const jobId = (started.value as { jobId: string }).jobId;
      for (let round = 0; round < 400; round += 1) {
        const status = await client.result(client.call('sync.status', { profileId }));
        const jobs = (status.value as { jobs: { jobId: string; state: string }[] }).jobs;
        if (!jobs.some((job) => job.jobId === jobId && job.state === 'running')) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const preview = await client.result(
        client.call('documentPreviews.get', { profileId, applicantId: scan.applicant, documentId: scan.document }),
      );
      expect(preview.ok, JSON.stringify(preview.error)).toBe(true);
      const listed = await client.result(
        client.call('audit.list', { profileId, action: 'document.preview', limit: 10 }),
      );
      const entries = (listed.value as { rows: AuditEntry[] }).rows;
      expect(entries).toHaveLength(1);
      expectPreviewEntry(entries[0], scan.applicant, scan.document, 'bank');
      client.close();
    });
  });
});
