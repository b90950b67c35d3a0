/**
 * Drift, measured by the services (issue 14, item 3): against the sandbox in its own shapes
 * nothing drifts (it serves what the interface lists, its extras known); against the same
 * sandbox answering lean, what the real service leaves out is counted per resource, kept in
 * the cache database across a restart, and dropped with the profile.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { servicesOn, startBank, type RunningSandbox } from './support/sandboxBank.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function readEverything(sandbox: RunningSandbox, folder: string) {
  const bank = await servicesOn(sandbox, folder);
  const { services, profile } = bank;
  const [accountId] = sandbox.demo.accounts;
  const [applicationId] = sandbox.demo.accountApplications;
  const [, , , scan] = sandbox.demo.files;
  if (accountId === undefined || applicationId === undefined || scan === undefined) throw new Error('no demo ids');
  const client = services.clients.clientFor(profile.id);
  await client.listAccounts();
  await client.listCardProducts();
  await services.sync.start({ kind: 'pending-transactions', profileId: profile.id, accountId }).done;
  await services.sync.start({ kind: 'account-application', profileId: profile.id, applicationId }).done;
  await services.writes.createWebhook(profile.id, { event: 'ach.update', url: 'https://hooks.example/drift' });
  await services.sync.start({ kind: 'webhooks', profileId: profile.id }).done;
  await services.sync.start({ kind: 'webhook-sends', profileId: profile.id, full: true }).done;
  await services.writes.createDocument(profile.id, { type: 'passport', name: 'Drift', file_id: scan, fields: {} });
  return bank;
}

describe('drift', () => {
  it('is none against the sandbox in its own shapes: every resource as the interface lists it', async () => {
    const sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 30 });
    cleanups.push(() => sandbox.close());
    const temp = makeTempFolder();
    cleanups.push(temp.remove);
    const { services, profile } = await readEverything(sandbox, temp.folder);
    cleanups.push(() => services.close());
    const report = services.drift.report(profile.id);
    expect(report.resources.map((resource) => resource.resource).sort()).toEqual([
      'account',
      'account list',
      'account_application',
      'card_product',
      'card_product list',
      'document',
      'pending_transaction',
      'pending_transaction list',
      // The application's applicants, fetched with it (issue 24).
      'person_application',
      'webhook',
      'webhook list',
      'webhook_send list',
    ]);
    for (const resource of report.resources) {
      expect({ resource: resource.resource, missing: resource.missing, unknown: resource.unknown }).toEqual({
        resource: resource.resource,
        missing: [],
        unknown: [],
      });
    }
  });

  it('counts what the lean (real) shapes leave out, keeps it across a restart, and drops it with the profile', async () => {
    const sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 30, lean: true });
    cleanups.push(() => sandbox.close());
    const temp = makeTempFolder();
    cleanups.push(temp.remove);
    const first = await readEverything(sandbox, temp.folder);
    const missingOf = (report: ReturnType<typeof first.services.drift.report>) =>
      Object.fromEntries(
        report.resources
          .filter((resource) => resource.missing.length > 0)
          .map((resource) => [resource.resource, resource.missing.map((field) => field.field).sort()]),
      );
    // Everything the lean shapes leave out (a card product of the real shape lacks nothing expected).
    const drifting = {
      account_application: ['account_number', 'ownership_type', 'product'],
      'card_product list': ['page_next'],
      document: ['bank_id', 'description', 'organization_id'],
      pending_transaction: ['partner_deposit_id'],
      'pending_transaction list': ['page_next'],
      // Fetched with its application (issue 24); the lean shape has no document links.
      person_application: ['document_ids'],
      webhook: ['basic_secret', 'basic_user'],
      'webhook list': ['page_next'],
    };
    expect(missingOf(first.services.drift.report(first.profile.id))).toEqual(drifting);
    await first.services.close();

    // Kept in the cache database: the next run reads the same counts.
    const second = await servicesOn(sandbox, temp.folder, { secrets: first.secrets });
    cleanups.push(() => second.services.close());
    expect(missingOf(second.services.drift.report(first.profile.id))).toEqual(drifting);
    await second.services.removeProfile(first.profile.id);
    expect(second.services.drift.report(first.profile.id).resources).toEqual([]);
  });
});
