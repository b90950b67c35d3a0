/**
 * The handlers wired to the real services, the real listener and a real sandbox bank, called
 * through the real router and the shared bridge — what the window does, minus Electron.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';
import { openAppOverIpc, type AppOverIpc } from '../../support/app.ts';
import { eventChannel } from '../../../src/shared/ipc/contract.ts';
import type { SyncProgress } from '../../../src/shared/ipc/domains/sync.ts';
import { isLedgerdeskError } from '../../../src/shared/ipc/errors.ts';
import type { AccountApplication, WebhookSend } from '../../../src/shared/bank/index.ts';
import type { RunningSandbox } from '../../../src/sandbox/index.ts';
import { clientOf, eventually } from '../sandbox/sandboxClient.ts';
import { startReceiver, type Behaviour } from '../sandbox/webhookReceiver.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let app: AppOverIpc;
let sandbox: RunningSandbox;
let api: LedgerdeskApi;

/** Waits for a sync job's pushed progress (sync.onProgress) to say it ended; answers how. */
async function syncEnded(jobId: string): Promise<string> {
  return eventually(() => {
    const ended = app.pushes.find(
      ({ channel, payload }) =>
        channel === eventChannel('sync', 'progress') &&
        (payload as SyncProgress).jobId === jobId &&
        (payload as SyncProgress).state !== 'running',
    );
    return (ended?.payload as SyncProgress | undefined)?.state;
  }, `sync job ${jobId} to end`);
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (reason) {
    return reason;
  }
  throw new Error('expected a rejection');
}

beforeAll(async () => {
  app = await openAppOverIpc('ipc', {
    // Capped low, so a notification that always fails runs its 16 attempts quickly.
    sandbox: { retryCapMs: 20, pendingTransactionsPerAccount: 120 },
  });
  ({ api, sandbox } = app);
});

afterAll(() => app.close());

describe('the handlers on the real services', () => {
  it('lists the embedded sandbox profile, active by default, with its credential set', async () => {
    const { profiles, activeProfileId } = await api.profiles.list();
    expect(profiles.map((profile) => profile.kind)).toContain('embedded');
    expect(activeProfileId).toBe(profiles[0]?.id);
    const status = await api.credentials.status({ profileId: activeProfileId ?? '' });
    expect(status.state).toBe('set');
  });

  it('takes the profile names the contract takes, and names the field of every refused write', async () => {
    const added = await api.profiles.create({
      name: 'Acme (staging)',
      baseUrl: 'https://staging.bank.example',
      authScheme: 'bearer',
    });
    expect(added.name).toBe('Acme (staging)');
    const renamed = await api.profiles.update({ id: added.id, name: 'Acme (UAT) & R&D' });
    expect(renamed.name).toBe('Acme (UAT) & R&D');

    const fieldOf = async (write: Promise<unknown>) => {
      const refused = await rejectionOf(write);
      return isLedgerdeskError(refused) ? { code: refused.code, field: refused.field } : refused;
    };
    // Refused by the service (the contract leaves keyId optional; Basic needs it).
    expect(
      await fieldOf(api.profiles.create({ name: 'No key', baseUrl: 'https://b.example', authScheme: 'basic' })),
    ).toEqual({ code: 'invalid_input', field: 'keyId' });
    // A name another profile has, in any case.
    expect(
      await fieldOf(
        api.profiles.create({ name: 'acme (uat) & r&d', baseUrl: 'https://b.example', authScheme: 'bearer' }),
      ),
    ).toEqual({ code: 'conflict', field: 'name' });
    // Refused by the contract, with the same rule and the same field.
    expect(await fieldOf(api.profiles.update({ id: added.id, name: '(no letter first)' }))).toEqual({
      code: 'invalid_input',
      field: 'name',
    });
    expect(await fieldOf(api.profiles.update({ id: added.id, baseUrl: 'https://b.example/?q=1' }))).toEqual({
      code: 'invalid_input',
      field: 'baseUrl',
    });
    await api.profiles.remove({ id: added.id });
  });

  it('syncs pending transactions of a sandbox account into the cache and pages through them', async () => {
    const { activeProfileId } = await api.profiles.list();
    const profileId = activeProfileId ?? '';
    const accounts = await api.accounts.list({ profileId });
    const accountId = accounts.rows[0]?.id ?? '';
    expect(accountId).toMatch(/^acct_/);
    const started = await api.sync.start({ profileId, job: { kind: 'pendingTransactions', accountId } });
    expect(started.kind).toBe('pendingTransactions');
    for (let round = 0; round < 400; round += 1) {
      const { jobs } = await api.sync.status({ profileId });
      if (!jobs.some((job) => job.jobId === started.jobId && job.state === 'running')) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const first = await api.pendingTransactions.list({ profileId, accountId, limit: 50 });
    expect(first.source).toBe('cache');
    expect(first.rows).toHaveLength(50);
    expect(first.asOf).not.toBeNull();
    expect(first.nextCursor).not.toBeNull();
    const second = await api.pendingTransactions.list({
      profileId,
      accountId,
      limit: 50,
      cursor: first.nextCursor ?? '',
    });
    expect(second.rows[0]?.rowKey).not.toBe(first.rows[0]?.rowKey);
    const { count } = await api.pendingTransactions.count({ profileId, accountId });
    expect(count).toBe(120);
    await expect(api.accounts.cached({ profileId })).resolves.toEqual({ accountIds: [accountId], source: 'cache' });
    const saved = await api.exports.pendingTransactions({ profileId, accountId, format: 'csv' });
    expect(saved).toMatchObject({ saved: true, rows: 120 });
  });

  it('uploads a file, creates a document and uploads card art, each recorded in the audit log', async () => {
    const { activeProfileId } = await api.profiles.list();
    const profileId = activeProfileId ?? '';
    const file = await api.files.upload({ profileId, contentType: 'image/png', bytes: new Uint8Array(PNG) });
    const document = await api.documents.create({
      profileId,
      request: {
        type: 'passport',
        name: 'Passport of A. Tester',
        file_id: file.id,
        fields: { date_of_birth: '1990-01-31' },
      },
    });
    expect(document.id).toMatch(/^doc_/);
    const products = await api.cardArt.products({ profileId });
    const cardProductId = products.rows[0]?.id ?? '';
    const upload = await api.cardArt.upload({
      profileId,
      cardProductId,
      request: { asset_type: 'front', file_id: file.id },
    });
    expect(upload.cardProductId).toBe(cardProductId);
    const documents = await api.documents.list({ profileId });
    expect(documents.rows.map((row) => row.id)).toContain(document.id);
    const audit = await api.audit.list({ profileId });
    expect(audit.rows.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['document.create', 'card_art.upload']),
    );
  });

  it('creates, disables and deletes a webhook; a Production profile needs the confirmation', async () => {
    const { activeProfileId } = await api.profiles.list();
    const profileId = activeProfileId ?? '';
    const created = await api.webhooks.create({
      profileId,
      request: {
        event: 'ach.update',
        url: 'https://hooks.example/ach',
        basic_user: 'bank',
        basic_secret: 'hook-secret-123',
      },
    });
    expect(created.basic_secret).toBeNull();
    const disabled = await api.webhooks.update({ profileId, id: created.id, changes: { status: 'disabled' } });
    expect(disabled.status).toBe('disabled');
    await expect(api.webhooks.delete({ profileId, id: created.id })).resolves.toEqual({
      deleted: true,
      id: created.id,
    });

    const production = await api.profiles.create({
      name: 'Production',
      baseUrl: sandbox.baseUrl,
      authScheme: 'basic',
      keyId: sandbox.keyId,
      production: true,
    });
    await api.credentials.set({ profileId: production.id, secret: sandbox.keySecret });
    const refused = await rejectionOf(
      api.webhooks.create({
        profileId: production.id,
        request: { event: 'ach.update', url: 'https://hooks.example/p' },
      }),
    );
    expect(isLedgerdeskError(refused) && refused.code).toBe('confirmation_required');
    const confirmed = await api.webhooks.create({
      profileId: production.id,
      request: { event: 'ach.update', url: 'https://hooks.example/p' },
      confirmProduction: true,
    });
    expect(confirmed.id).toMatch(/^wh_/);
  });

  it('starts the listener, registers it with the bank and stops it', async () => {
    const { activeProfileId } = await api.profiles.list();
    const profileId = activeProfileId ?? '';
    await api.listener.configure({ port: null });
    const started = await api.listener.start({ port: 0 });
    expect(started.running).toBe(true);
    expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    const registered = await api.listener.register({ profileId, event: 'ach.update' });
    expect(registered.webhook.basic_secret).toBeNull();
    const page = await api.listener.listRequests({});
    expect(page.source).toBe('cache');

    // Fail twice, then answer 202: counted per notification.
    await api.listener.setRules({
      rules: [{ id: 'flaky', match: {}, response: { kind: 'failTimes', times: 2, status: 503, thenStatus: 202 } }],
    });
    const rules = await api.listener.listRules();
    expect(rules.rules[0]?.response).toMatchObject({ kind: 'failTimes', times: 2, status: 503, thenStatus: 202 });
    const statuses: number[] = [];
    for (let n = 0; n < 3; n += 1) {
      const answer = await fetch(`${started.url ?? ''}/hooks/ipc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          event: 'ach.update',
          op: 'update',
          id: 'ach_IPC1',
          url: 'http://127.0.0.1:1/ach/ach_IPC1',
        }),
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([503, 503, 202]);
    await api.listener.setRules({ rules: [] });
    const duplicates = await api.listener.listRequests({ duplicatesOnly: true, pathPrefix: '/hooks/' });
    expect(duplicates.rows.map((row) => row.status)).toEqual([202, 503]);
    await expect(api.listener.countRequests({ search: 'ach_ipc1' })).resolves.toMatchObject({ count: 3 });
    await expect(api.listener.countRequests({ pathPrefix: '/nowhere' })).resolves.toMatchObject({ count: 0 });
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const reconciled = await api.listener.reconcile({
      profileId,
      webhookId: registered.webhook.id,
      fromDate: today,
      toDate: tomorrow,
    });
    expect(reconciled.counts).toMatchObject({ sentNotReceived: 0 });
    const backwards = await rejectionOf(
      api.listener.reconcile({ profileId, webhookId: registered.webhook.id, fromDate: tomorrow, toDate: today }),
    );
    expect(isLedgerdeskError(backwards) && backwards.code).toBe('invalid_input');
    await api.listener.unregister({ profileId, webhookId: registered.webhook.id });
    // The listener's bank is the profile's own client: a wrong key is its typed error, with what to do.
    const wrongKey = await api.profiles.create({
      name: 'Wrong key',
      baseUrl: sandbox.baseUrl,
      authScheme: 'basic',
      keyId: sandbox.keyId,
      production: false,
    });
    await api.credentials.set({ profileId: wrongKey.id, secret: 'not-the-secret' });
    const refused = await rejectionOf(api.listener.reconcile({ profileId: wrongKey.id, webhookId: 'wh_any' }));
    expect(isLedgerdeskError(refused) && refused.code).toBe('unauthorized');
    expect(isLedgerdeskError(refused) && refused.message).toContain('Wrong key');
    const stopped = await api.listener.stop();
    expect(stopped.running).toBe(false);
  });

  it('reconciles every webhook registered with the listener when no webhookId is given', async () => {
    const { activeProfileId } = await api.profiles.list();
    const profileId = activeProfileId ?? '';
    const bank = clientOf(sandbox);
    await api.listener.start({ port: 0 });
    const first = await api.listener.register({ profileId, event: 'ach.create' });
    const second = await api.listener.register({ profileId, event: 'ach.create' });
    try {
      const created = await bank.call('POST', '/simulation', {
        body: {
          type: 'ach.create',
          simulation: { account_id: sandbox.demo.accounts[0], amount: '1.00', direction: 'credit' },
        },
      });
      const objectId = (created.body as { object_id: string }).object_id;
      // Each webhook's delivery reached its own path, and the bank recorded both as sent.
      for (const webhookId of [first.webhook.id, second.webhook.id]) {
        await eventually(async () => {
          const reply = await bank.get(`/webhook_send?webhook_id=${webhookId}&object_id=${objectId}`);
          const sends = (reply.body as { data: WebhookSend[] }).data;
          return sends.some((send) => send.status === 'sent') ? true : undefined;
        }, `the bank to record its delivery to ${webhookId}`);
      }

      const everyWebhook = await api.listener.reconcile({ profileId });
      const ours = everyWebhook.rows.filter((row) => row.objectId === objectId);
      expect(ours.map((row) => [row.category, row.webhookId]).sort()).toEqual(
        [
          ['sentAndReceived', first.webhook.id],
          ['sentAndReceived', second.webhook.id],
        ].sort(),
      );
      const one = await api.listener.reconcile({ profileId, webhookId: second.webhook.id });
      expect(one.rows.filter((row) => row.objectId === objectId).map((row) => row.webhookId)).toEqual([
        second.webhook.id,
      ]);
      const firstAlone = await api.listener.reconcile({ profileId, webhookId: first.webhook.id });
      expect(everyWebhook.counts.sentAndReceived).toBe(one.counts.sentAndReceived + firstAlone.counts.sentAndReceived);
    } finally {
      await api.listener.unregister({ profileId, webhookId: first.webhook.id });
      await api.listener.unregister({ profileId, webhookId: second.webhook.id });
      await api.listener.stop();
    }
    // With nothing registered, there is nothing to join: an empty report, not a refusal.
    await api.listener.start({ port: 0 });
    const nothing = await api.listener.reconcile({ profileId });
    expect(nothing.rows).toEqual([]);
    await api.listener.stop();
  });

  it('filters, sorts and searches the cached lists', async () => {
    const { activeProfileId } = await api.profiles.list();
    const profileId = activeProfileId ?? '';
    const accounts = await api.accounts.cached({ profileId });
    const accountId = accounts.accountIds[0] ?? '';
    const everything = await api.pendingTransactions.list({ profileId, accountId, limit: 1000 });
    const source = everything.rows.find((row) => row.type_source !== null)?.type_source ?? 'card';
    const bySource = await api.pendingTransactions.list({ profileId, accountId, typeSource: source, limit: 1000 });
    expect(bySource.rows.length).toBe(everything.rows.filter((row) => row.type_source === source).length);
    expect(bySource.rows.length).toBeGreaterThan(0);
    await expect(api.pendingTransactions.count({ profileId, accountId, typeSource: source })).resolves.toMatchObject({
      count: bySource.rows.length,
    });
    const exported = await api.exports.pendingTransactions({ profileId, accountId, typeSource: source, format: 'csv' });
    expect(exported).toMatchObject({ saved: true, rows: bySource.rows.length });

    const applications = await api.accountApplications.list({ profileId, search: 'aact_', sortBy: 'status' });
    expect(applications.source).toBe('cache');
    await expect(api.accountApplications.count({ profileId, search: 'zz-nothing' })).resolves.toMatchObject({
      count: 0,
    });
    const documents = await api.documents.list({ profileId, search: 'a. tester' });
    expect(documents.rows.map((row) => row.name)).toEqual(['Passport of A. Tester']);
    const audit = await api.audit.list({ profileId, action: 'document.create', result: 'ok', search: 'doc_' });
    expect(audit.rows.map((entry) => entry.action)).toEqual(['document.create']);
  });

  it('syncs the send log of real deliveries: one object, then the webhook; groups, willRetry and search', async () => {
    const { activeProfileId } = await api.profiles.list();
    const profileId = activeProfileId ?? '';
    const bank = clientOf(sandbox);
    // A receiver that answers each notification as the phase it arrived in says: one that
    // fails twice then succeeds, one that succeeds at once, one that always fails.
    let phase: 'flaky' | 'ok' | 'down' = 'flaky';
    const attemptsSeen = new Map<string, number>();
    const receiver = await startReceiver((notification): Behaviour => {
      const objectId = String(notification.body.id);
      const seen = attemptsSeen.get(objectId) ?? 0;
      attemptsSeen.set(objectId, seen + 1);
      if (phase === 'ok') return 200;
      if (phase === 'down') return 503;
      return seen < 2 ? 503 : 202;
    });
    const hook = await api.webhooks.create({ profileId, request: { event: 'ach.create', url: receiver.url } });
    try {
      /** The sandbox's own log of one notification, oldest first, once its attempts have ended. */
      const deliver = async (): Promise<{ objectId: string; sends: WebhookSend[] }> => {
        const created = await bank.call('POST', '/simulation', {
          body: {
            type: 'ach.create',
            simulation: { account_id: sandbox.demo.accounts[0], amount: '12.34', direction: 'credit' },
          },
        });
        expect(created.status).toBe(202);
        const objectId = (created.body as { object_id: string }).object_id;
        const sends = await eventually(async () => {
          const reply = await bank.get(`/webhook_send?page_size=100&webhook_id=${hook.id}&object_id=${objectId}`);
          const newestFirst = (reply.body as { data: WebhookSend[] }).data;
          const last = newestFirst[0];
          return last !== undefined && !last.will_retry && last.status !== 'skipped'
            ? [...newestFirst].reverse()
            : undefined;
        }, `the attempts for ${objectId} to end`);
        return { objectId, sends };
      };
      const flaky = await deliver();
      phase = 'ok';
      const ok = await deliver();
      phase = 'down';
      const down = await deliver();
      // What the bank itself recorded: the ground truth the cache must match.
      expect(flaky.sends.map((send) => [send.attempt_number, send.status, send.will_retry])).toEqual([
        [0, 'error', true],
        [1, 'error', true],
        [2, 'sent', false],
      ]);
      expect(ok.sends.map((send) => send.status)).toEqual(['sent']);
      expect(down.sends).toHaveLength(16);
      expect(down.sends.at(-1)).toMatchObject({ status: 'error', will_retry: false });
      const idsOf = (sends: readonly { id: string }[]): string[] => sends.map((send) => send.id).sort();

      // One object's sync fetches that object's sends and nothing else.
      const objectSync = await api.sync.start({ profileId, job: { kind: 'webhookSends', objectId: flaky.objectId } });
      expect(objectSync.key).toContain(`objectId=${flaky.objectId}`);
      await expect(syncEnded(objectSync.jobId)).resolves.toBe('done');
      const afterOne = await api.webhookSends.list({ profileId, webhookId: hook.id, limit: 1000 });
      expect(idsOf(afterOne.rows)).toEqual(idsOf(flaky.sends));
      await expect(api.webhookSends.count({ profileId, objectId: ok.objectId })).resolves.toMatchObject({ count: 0 });
      await expect(api.webhookSends.count({ profileId, objectId: down.objectId })).resolves.toMatchObject({
        count: 0,
      });

      // The webhook's whole log.
      const hookSync = await api.sync.start({ profileId, job: { kind: 'webhookSends', webhookId: hook.id } });
      await expect(syncEnded(hookSync.jobId)).resolves.toBe('done');
      const all = [...flaky.sends, ...ok.sends, ...down.sends];
      const everything = await api.webhookSends.list({ profileId, webhookId: hook.id, limit: 1000 });
      expect(idsOf(everything.rows)).toEqual(idsOf(all));

      // Groups: one per notification, with its attempts, last status and last error.
      const groups = await api.webhookSends.groups({ profileId, webhookId: hook.id });
      expect(groups.source).toBe('cache');
      const byObject = new Map(groups.rows.map((group) => [group.objectId, group]));
      expect(groups.rows).toHaveLength(3);
      expect(byObject.get(flaky.objectId)).toMatchObject({
        event: 'ach.create',
        attempts: 3,
        lastStatus: 'sent',
        willRetry: false,
        lastError: null,
      });
      expect(byObject.get(ok.objectId)).toMatchObject({ attempts: 1, lastStatus: 'sent', willRetry: false });
      expect(byObject.get(down.objectId)).toMatchObject({ attempts: 16, lastStatus: 'error', willRetry: false });
      expect(byObject.get(down.objectId)?.lastError).toMatch(/503/);
      // Every notification has ended: no group is still being retried.
      const stillRetrying = await api.webhookSends.groups({ profileId, webhookId: hook.id, willRetry: true });
      expect(stillRetrying.rows).toEqual([]);

      // willRetry on rows: exactly the failed attempts the bank said it would retry.
      const retried = all.filter((send) => send.will_retry);
      expect(retried).toHaveLength(2 + 15);
      const retrying = await api.webhookSends.list({
        profileId,
        webhookId: hook.id,
        willRetry: true,
        sortBy: 'attempt_number',
        limit: 1000,
      });
      expect(idsOf(retrying.rows)).toEqual(idsOf(retried));
      const final = await api.webhookSends.list({ profileId, webhookId: hook.id, willRetry: false, limit: 1000 });
      expect(idsOf(final.rows)).toEqual(idsOf(all.filter((send) => !send.will_retry)));

      // Search by object id (any case) finds that notification's attempts, and only those.
      const searched = await api.webhookSends.list({
        profileId,
        search: flaky.objectId.toUpperCase(),
        sortBy: 'attempt_number',
        sortDirection: 'asc',
        limit: 1000,
      });
      expect(searched.rows.map((row) => row.attempt_number)).toEqual([0, 1, 2]);
      expect(idsOf(searched.rows)).toEqual(idsOf(flaky.sends));
      const unknown = await api.webhookSends.list({ profileId, search: 'ach_nosuchobject', limit: 1000 });
      expect(unknown.rows).toEqual([]);
      await expect(api.webhookSends.count({ profileId, search: 'ach_nosuchobject' })).resolves.toMatchObject({
        count: 0,
      });
    } finally {
      await api.webhooks.delete({ profileId, id: hook.id });
      await receiver.close();
    }
  });

  it('sorts cached account applications by last update, not by creation', async () => {
    const { activeProfileId } = await api.profiles.list();
    const profileId = activeProfileId ?? '';
    const bank = clientOf(sandbox);
    // Two seeded applications, still unsubmitted; the one created first is the one updated now.
    const seeded = await Promise.all(
      sandbox.demo.accountApplications.slice(0, 2).map(async (id) => {
        const reply = await bank.get(`/apply/account_application/${id}`);
        return reply.body as AccountApplication;
      }),
    );
    const [older, newer] = [...seeded].sort((a, b) => a.created_at.localeCompare(b.created_at));
    if (older === undefined || newer === undefined) throw new Error('the sandbox seeds applications');
    expect(older.status).toBe('unsubmitted');
    expect(older.created_at < newer.created_at).toBe(true);
    const moved = await bank.call('POST', '/simulation', {
      body: {
        type: 'account_application.update_status',
        simulation: { account_application_id: older.id, status: 'submitted' },
      },
    });
    expect(moved.status).toBe(202);
    for (const id of [older.id, newer.id]) {
      const job = await api.sync.start({ profileId, job: { kind: 'accountApplication', id } });
      await expect(syncEnded(job.jobId)).resolves.toBe('done');
    }
    const ids = async (sortBy: 'updated_at' | 'created_at', sortDirection: 'asc' | 'desc'): Promise<string[]> => {
      const rows: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await api.accountApplications.list({
          profileId,
          sortBy,
          sortDirection,
          limit: 1,
          ...(cursor === undefined ? {} : { cursor }),
        });
        rows.push(...page.rows.map((row) => row.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
      return rows;
    };
    await expect(ids('updated_at', 'desc')).resolves.toEqual([older.id, newer.id]);
    await expect(ids('updated_at', 'asc')).resolves.toEqual([newer.id, older.id]);
    await expect(ids('created_at', 'desc')).resolves.toEqual([newer.id, older.id]);
    await expect(ids('created_at', 'asc')).resolves.toEqual([older.id, newer.id]);
  });

  it('never let a secret into any answer', () => {
    const text = JSON.stringify(app.answers);
    expect(text).not.toContain(sandbox.keySecret);
    expect(text).not.toContain('hook-secret-123');
  });
});
