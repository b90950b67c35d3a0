/**
 * The officer's review against the real sandbox, a real cache file and (under
 * scripts/with-keyring.sh) the real Secret Service: dispositions and notes through `ledger`,
 * reviews kept across resyncs, an application moved at the bank coming back as `changed`, watch
 * rules flagging after a sync, the report, clearing a profile's data, and every bad input
 * refused with one line and nothing written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../../src/main/services/credentials/keyringSecretStore.ts';
import { InMemorySecretStore, type SecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import type { Profile } from '../../../src/main/services/profiles/profile.ts';
import type { Review } from '../../../src/main/services/review/reviewsTable.ts';
import { ledger } from './support/ledgerRun.ts';
import { notificationRef } from '../../../src/shared/review/reviewTerms.ts';
import { json, startFaultServer } from './support/faultServer.ts';
import {
  deliveriesSettled,
  simulate,
  startBank,
  type RunningSandbox,
  LOOPBACK_SANDBOX,
} from './support/sandboxBank.ts';
import { makeTempFolder } from './support/tempFolder.ts';
import { accountLabel } from '../../../src/shared/review/itemNames.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

let sandbox: RunningSandbox;
let temp: { folder: string; remove: () => void };
let secrets: SecretStore;
let services: LedgerServices;
let profile: Profile;
let data: string[];

beforeEach(async () => {
  sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 300 });
  temp = makeTempFolder();
  // The real keychain when the throwaway Secret Service runs (npm run test:integration; each
  // test's profile and cache have ids of their own); otherwise memory, so the rest is checked.
  secrets = secretServiceHere ? new KeyringSecretStore() : new InMemorySecretStore();
  const folder = join(temp.folder, 'data');
  data = ['--data', folder];
  services = await LedgerServices.open({
    dataFolder: folder,
    secretStore: secrets,
    profileStorage: new FileProfileStorage(folder),
    cacheWriter: 'inline',
  });
  profile = await services.addProfile(
    { name: 'Sandbox', baseUrl: sandbox.baseUrl, authScheme: 'basic', keyId: sandbox.keyId, production: false },
    sandbox.keySecret,
  );
});

afterEach(async () => {
  await services.close();
  await sandbox.close();
  temp.remove();
});

function account(): string {
  return sandbox.demo.accounts[0] ?? '';
}

async function syncPending(): Promise<void> {
  const outcome = await services.sync.start({
    kind: 'pending-transactions',
    profileId: profile.id,
    accountId: account(),
  }).done;
  expect(outcome.error ?? null).toBeNull();
  expect(outcome.state).toBe('done');
}

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return ledger([...data, ...argv], secrets);
}

async function cliJson<Answer>(...argv: string[]): Promise<Answer> {
  const answer = await cli(...argv, '--json');
  expect(answer.stderr).toBe('');
  expect(answer.code).toBe(0);
  return JSON.parse(answer.stdout) as Answer;
}

type ListedRow = { ref: string; review: Review | null; amount: string };

describe('dispositions and notes', () => {
  it('reviews several pending transactions at once; the list shows ref and review; a resync keeps them', async () => {
    await syncPending();
    const first = await cliJson<{ rows: ListedRow[] }>(
      'list',
      'pending-transactions',
      '--profile',
      'Sandbox',
      '--account',
      account(),
      '--limit',
      '5',
    );
    expect(first.rows).toHaveLength(5);
    expect(first.rows.every((row) => typeof row.ref === 'string' && row.review === null)).toBe(true);
    const [one, two] = first.rows.map((row) => row.ref);
    const set = await cliJson<{ rows: Review[] }>(
      'review',
      'set',
      '--profile',
      'Sandbox',
      '--kind',
      'pending-transaction',
      '--ref',
      one ?? '',
      '--ref',
      two ?? '',
      '--disposition',
      'flagged',
      '--note',
      'Two charges, same merchant,\nsame minute.',
    );
    expect(set.rows.map((review) => [review.ref, review.state, review.note])).toEqual([
      [one, 'flagged', 'Two charges, same merchant,\nsame minute.'],
      [two, 'flagged', 'Two charges, same merchant,\nsame minute.'],
    ]);
    expect(set.rows[0]?.reviewer).toBe(services.reviews.reviewer.get().name);

    const flagged = await cliJson<{ rows: ListedRow[]; source: string }>(
      'list',
      'pending-transactions',
      '--profile',
      'Sandbox',
      '--account',
      account(),
      '--review',
      'flagged',
    );
    expect(flagged.source).toBe('cache');
    expect(flagged.rows.map((row) => row.ref).sort()).toEqual([one, two].sort());
    expect(flagged.rows[0]?.review).toMatchObject({ state: 'flagged', disposition: 'flagged', byRule: null });

    // The officer changes their mind on one: the history keeps both steps.
    await cliJson(
      'review',
      'set',
      '--profile',
      'Sandbox',
      '--kind',
      'pending-transaction',
      '--ref',
      one ?? '',
      '--disposition',
      'cleared',
    );
    const detail = services.reviews.detail(profile.id, 'pending-transaction', one ?? '');
    expect(detail.history.map((step) => [step.version, step.state, step.note])).toEqual([
      [1, 'flagged', 'Two charges, same merchant,\nsame minute.'],
      [2, 'cleared', null],
    ]);

    await syncPending();
    const listed = await cliJson<{ rows: { kind: string; ref: string; review: Review }[]; asOf: null; source: string }>(
      'review',
      'list',
      '--profile',
      'Sandbox',
    );
    expect(listed.rows.map((row) => [row.ref, row.review.state]).sort()).toEqual(
      [
        [one, 'cleared'],
        [two, 'flagged'],
      ].sort(),
    );
    const unreviewed = await cliJson<{ rows: unknown[] }>(
      'review',
      'list',
      '--profile',
      'Sandbox',
      '--kind',
      'pending-transaction',
      '--status',
      'unreviewed',
      '--account',
      account(),
      '--limit',
      '1000',
    );
    expect(unreviewed.rows).toHaveLength(298);
    expect(
      services.cache.pendingTransactions.count({ profileId: profile.id, accountId: account(), review: 'unreviewed' }),
    ).toBe(298);
    expect(services.reviews.counts(profile.id, 'pending-transaction')).toEqual({
      cleared: 1,
      flagged: 1,
      escalated: 0,
      changed: 0,
    });

    const audit = await cliJson<{ rows: { action: string; target: string; detail: string | null }[] }>(
      'audit',
      '--profile',
      'Sandbox',
    );
    const actions = audit.rows.map((row) => `${row.action} ${row.target}`);
    expect(actions).toContain(`review.flagged pending-transaction:${two ?? ''}`);
    expect(actions).toContain(`review.cleared pending-transaction:${one ?? ''}`);
    // The note is sealed in the cache, never in the (clear) audit log.
    expect(JSON.stringify(audit.rows)).not.toContain('same merchant');
  });

  it('refuses every bad input with one line, and writes nothing', async () => {
    await syncPending();
    const [row] = services.cache.pendingTransactions.list({
      profileId: profile.id,
      accountId: account(),
      limit: 1,
    }).rows;
    const ref = row?.row_key ?? '';
    const base = ['review', 'set', '--profile', 'Sandbox', '--kind', 'pending-transaction', '--ref', ref];
    const cases: [string[], number, RegExp][] = [
      [
        [...base, '--disposition', 'ignored'],
        2,
        /^ledger: --disposition: must be one of cleared, flagged, escalated\n$/,
      ],
      [[...base.slice(0, 5), 'transaction', '--ref', ref, '--disposition', 'cleared'], 2, /--kind: must be one of/],
      [
        [...base, '--disposition', 'cleared', '--note', 'x'.repeat(4001)],
        1,
        /note is 4001 characters long; a note holds at most 4000/,
      ],
      [[...base, '--disposition', 'cleared', '--note', 'bell\u0007'], 1, /must be plain text/],
      [
        [...base, '--ref', 'not-a-cached-ref', '--disposition', 'cleared'],
        1,
        /No pending-transaction not-a-cached-ref is in the offline cache of Sandbox; nothing was reviewed/,
      ],
      [
        ['review', 'set', '--profile', 'Sandbox', '--kind', 'application', '--disposition', 'cleared'],
        2,
        /needs --ref/,
      ],
      [
        ['review', 'list', '--profile', 'Sandbox', '--status', 'unreviewed', '--account', 'acct_nobody'],
        1,
        /No pending transactions of account acct_nobody are cached for Sandbox\. Cached accounts: acct_/,
      ],
      [['review', 'list', '--profile', 'Sandbox', '--status', 'pending'], 2, /--status: must be one of unreviewed/],
      [
        ['review', 'report', '--profile', 'Sandbox', '--from', '2026-02-01', '--to', '2026-01-01', '--html', 'r.html'],
        2,
        /--to \(2026-01-01\) must be after --from/,
      ],
      [
        ['rules', 'add', 'odd', '--profile', 'Sandbox', '--kind', 'application', '--send-status', 'error'],
        1,
        /sendStatus: is not a condition of a application rule/,
      ],
      [['rules', 'add', 'empty', '--profile', 'Sandbox', '--kind', 'webhook-send'], 1, /needs at least one condition/],
      [
        ['rules', 'add', 'bad', '--profile', 'Sandbox', '--kind', 'pending-transaction', '--amount-beyond', '12'],
        1,
        /amount with two decimals/,
      ],
      [['rules', 'remove', 'nothing', '--profile', 'Sandbox'], 1, /no watch rule named "nothing"/],
    ];
    for (const [argv, code, message] of cases) {
      const answer = await cli(...argv);
      expect({ argv: argv.join(' ').slice(0, 80), code: answer.code }).toEqual({
        argv: argv.join(' ').slice(0, 80),
        code,
      });
      expect(answer.stderr).toMatch(message);
      expect(answer.stderr.split('\n')).toHaveLength(2);
    }
    expect(services.reviews.list({ profileId: profile.id }).rows).toEqual([]);
    expect(services.reviews.rules.list(profile.id)).toEqual([]);
  });
});

describe('changed since review', () => {
  it('brings a moved application back as changed, field by field, until it is reviewed again', async () => {
    const [applicationId] = sandbox.demo.accountApplications;
    if (applicationId === undefined) throw new Error('no demo application');
    const syncApplication = async (): Promise<void> => {
      const outcome = await services.sync.start({ kind: 'account-application', profileId: profile.id, applicationId })
        .done;
      expect(outcome).toMatchObject({ state: 'done' });
    };
    await syncApplication();
    const before = services.cache.accountApplications.get(profile.id, applicationId)?.application.status;
    await cliJson(
      'review',
      'set',
      '--profile',
      'Sandbox',
      '--kind',
      'application',
      '--ref',
      applicationId,
      '--disposition',
      'cleared',
    );
    // A resync that brings the same record changes nothing.
    await syncApplication();
    expect(services.reviews.detail(profile.id, 'application', applicationId).review?.state).toBe('cleared');

    let moved: string | null = null;
    for (const status of ['submitted', 'kyc', 'processing', 'manual_review', 'approved', 'rejected', 'canceled']) {
      if (status === before) continue;
      try {
        await simulate(sandbox, 'account_application.update_status', { account_application_id: applicationId, status });
        moved = status;
        break;
      } catch {
        // Not an allowed move from the current status: try the next.
      }
    }
    if (moved === null) throw new Error('the sandbox allowed no move of the application');
    await syncApplication();

    const changed = await cliJson<{ rows: { ref: string; review: Review }[] }>(
      'review',
      'list',
      '--profile',
      'Sandbox',
      '--status',
      'changed',
    );
    expect(changed.rows.map((row) => row.ref)).toEqual([applicationId]);
    const review = changed.rows[0]?.review;
    expect(review).toMatchObject({ state: 'changed', disposition: 'cleared' });
    expect(review?.changes).toContainEqual({
      field: 'status',
      before: JSON.stringify(before),
      after: JSON.stringify(moved),
    });
    const detail = services.reviews.detail(profile.id, 'application', applicationId);
    expect(detail.history.map((step) => step.state)).toEqual(['cleared', 'changed']);
    expect((detail.reviewedRecord as { status: string }).status).toBe(before);
    expect((detail.cachedRecord as { status: string }).status).toBe(moved);
    expect(services.cache.accountApplications.count({ profileId: profile.id, review: 'changed' })).toBe(1);

    // Reviewed again, on the new record: a further resync leaves it alone.
    await cliJson(
      'review',
      'set',
      '--profile',
      'Sandbox',
      '--kind',
      'application',
      '--ref',
      applicationId,
      '--disposition',
      'escalated',
    );
    await syncApplication();
    expect(services.reviews.detail(profile.id, 'application', applicationId).review).toMatchObject({
      state: 'escalated',
      changes: [],
      version: 3,
    });
  });

  it('marks a reviewed pending transaction changed when the bank no longer lists it as pending', async () => {
    await syncPending();
    const rows = services.cache.pendingTransactions.list({
      profileId: profile.id,
      accountId: account(),
      limit: 2,
    }).rows;
    const gone = rows[0];
    if (gone === undefined) throw new Error('no cached transaction');
    services.reviews.give({
      profileId: profile.id,
      kind: 'pending-transaction',
      refs: [gone.row_key],
      disposition: 'escalated',
    });
    // The bank posts it: a complete resync sweeps the row the bank no longer lists.
    services.cache.transaction(() => {
      const { checkpoint } = services.cache.checkpoints.begin(
        profile.id,
        'pending-transactions',
        'test',
        '{}',
        new Date().toISOString(),
      );
      const kept = rows.slice(1).map(({ row_key: _key, ...transaction }) => transaction);
      services.cache.pendingTransactions.writePage(profile.id, account(), kept, checkpoint.generation);
      services.cache.pendingTransactions.sweep(profile.id, account(), checkpoint.generation, {});
    });
    expect(services.reviews.afterSync(profile.id, 'pending-transactions')).toEqual({ changed: 1, flaggedByRule: {} });
    const review = services.reviews.detail(profile.id, 'pending-transaction', gone.row_key);
    expect(review.review).toMatchObject({ state: 'changed', disposition: 'escalated' });
    expect(review.review?.changes).toEqual([
      { field: '(record)', before: JSON.stringify(review.reviewedRecord), after: null },
    ]);
    expect(review.cachedRecord).toBeNull();
    // Found once: the next sync does not mark it again.
    expect(services.reviews.afterSync(profile.id, 'pending-transactions').changed).toBe(0);

    // Back in the queue, the officer reviews it again though the cache no longer holds it
    // (from the command line: a row key may start with a dash). The review keeps the record
    // last seen, and nothing is compared any more.
    const again = await cliJson<{ rows: Review[] }>(
      'review',
      'set',
      '--profile',
      'Sandbox',
      '--kind',
      'pending-transaction',
      '--ref',
      gone.row_key,
      '--disposition',
      'cleared',
      '--note',
      'Posted by the bank; nothing to follow.',
    );
    expect(again.rows[0]).toMatchObject({ state: 'cleared', version: 3, changes: [] });
    expect(services.reviews.afterSync(profile.id, 'pending-transactions').changed).toBe(0);
    const after = services.reviews.detail(profile.id, 'pending-transaction', gone.row_key);
    expect(after.history.map((step) => step.state)).toEqual(['escalated', 'changed', 'cleared']);
    expect(after.reviewedRecord).toEqual(review.reviewedRecord);
    // A ref never reviewed and not cached is still refused.
    expect(() =>
      services.reviews.give({
        profileId: profile.id,
        kind: 'pending-transaction',
        refs: ['-never-cached'],
        disposition: 'cleared',
      }),
    ).toThrow(/No pending-transaction -never-cached is in the offline cache/);
  });

  it('brings a reviewed notification back as changed when the bank retries it', async () => {
    let failing = true;
    const receiver = await startFaultServer();
    receiver.respond((_request, response) => {
      json(response, failing ? 500 : 200, {});
    });
    try {
      const webhook = await services.writes.createWebhook(
        profile.id,
        {
          event: 'ach.create',
          url: `${receiver.baseUrl}/hook`,
        },
        LOOPBACK_SANDBOX,
      );
      await simulate(sandbox, 'ach.create', { account_id: account(), amount: '12.00', direction: 'credit' });
      const syncSends = async (): Promise<void> => {
        const outcome = await services.sync.start({
          kind: 'webhook-sends',
          profileId: profile.id,
          webhookId: webhook.id,
          full: true,
        }).done;
        expect(outcome).toMatchObject({ state: 'done' });
      };
      // At least one failed attempt reached the cache.
      for (let round = 0; round < 200; round += 1) {
        await syncSends();
        if (services.cache.webhookSends.list({ profileId: profile.id, webhookId: webhook.id }).rows.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const [group] = services.cache.webhookSends.groups({ profileId: profile.id, webhookId: webhook.id }).rows;
      if (group === undefined) throw new Error('no notification cached');
      const ref = notificationRef(group.webhookId, group.objectId, group.event);
      const [attempt] = services.cache.webhookSends.list({ profileId: profile.id, webhookId: webhook.id }).rows;
      services.reviews.give({
        profileId: profile.id,
        kind: 'webhook-send',
        refs: [ref, attempt?.id ?? ''],
        disposition: 'escalated',
        note: 'Receiver down; ticket opened.',
      });
      failing = false;
      await deliveriesSettled(sandbox);
      await syncSends();

      const detail = services.reviews.detail(profile.id, 'webhook-send', ref);
      expect(detail.review).toMatchObject({ state: 'changed', disposition: 'escalated' });
      const attemptsBefore = (detail.reviewedRecord as { attempts: unknown[] }).attempts.length;
      const attemptsNow = (detail.cachedRecord as { attempts: { status: string }[] }).attempts;
      expect(attemptsNow.length).toBeGreaterThan(attemptsBefore);
      expect(attemptsNow.at(-1)?.status).toBe('sent');
      expect(
        detail.review?.changes.some((change) => change.field.startsWith(`attempts[${String(attemptsBefore)}]`)),
      ).toBe(true);
      // One attempt does not change when the bank retries: its own review stands.
      expect(services.reviews.detail(profile.id, 'webhook-send', attempt?.id ?? '').review?.state).toBe('escalated');
      expect(
        services.cache.webhookSends.groups({
          profileId: profile.id,
          webhookId: webhook.id,
          notificationReview: 'changed',
        }).rows.length,
      ).toBe(1);
    } finally {
      await receiver.close();
    }
  });
});

describe('watch rules', () => {
  it('flags matching unreviewed items after a sync, apart from a person’s flags', async () => {
    const added = await cli(
      'rules',
      'add',
      'Large debits',
      '--profile',
      'Sandbox',
      '--kind',
      'pending-transaction',
      // A value starting with a dash is given with '=' (node:util parseArgs).
      '--amount-beyond=-400.00',
    );
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const listed = await cli('rules', '--profile', 'Sandbox');
    expect(listed.stdout).toMatch(/Large debits\s+pending-transaction\s+pending-transaction: amount ≤ -400\.00/);

    await syncPending();
    const expected = services.cache.pendingTransactions
      .list({ profileId: profile.id, accountId: account(), limit: 1000 })
      .rows.filter((row) => Number(row.amount) <= -400);
    expect(expected.length).toBeGreaterThan(0);
    const flagged = services.cache.pendingTransactions.list({
      profileId: profile.id,
      accountId: account(),
      review: 'flagged',
      limit: 1000,
    });
    expect(flagged.rows.map((row) => row.row_key).sort()).toEqual(expected.map((row) => row.row_key).sort());
    const [first] = flagged.rows;
    const byRule = services.reviews.ofRefs(profile.id, 'pending-transaction', [first?.row_key ?? '']);
    expect([...byRule.values()][0]).toMatchObject({
      state: 'flagged',
      byRule: 'Large debits',
      disposition: null,
      reviewer: null,
    });

    // A person's review replaces the rule's flag; the rule never flags it again.
    services.reviews.give({
      profileId: profile.id,
      kind: 'pending-transaction',
      refs: [first?.row_key ?? ''],
      disposition: 'cleared',
    });
    await syncPending();
    expect(
      services.reviews
        .detail(profile.id, 'pending-transaction', first?.row_key ?? '')
        .history.map((step) => [step.state, step.byRule]),
    ).toEqual([
      ['flagged', 'Large debits'],
      ['cleared', null],
    ]);
    expect(services.reviews.counts(profile.id, 'pending-transaction')).toMatchObject({
      cleared: 1,
      flagged: expected.length - 1,
    });
  });
});

describe('watch rules on sends, applications and words', () => {
  it('flags failing sends and late attempts after a send-log sync, and an application by status', async () => {
    const receiver = await startFaultServer();
    receiver.respond((_request, response, index) => {
      json(response, index < 2 ? 500 : 200, {});
    });
    try {
      services.reviews.saveRule(profile.id, { name: 'Failing sends', kind: 'webhook-send', sendStatus: 'error' });
      services.reviews.saveRule(profile.id, { name: 'Retried twice', kind: 'webhook-send', attemptAtLeast: 2 });
      const webhook = await services.writes.createWebhook(
        profile.id,
        {
          event: 'ach.create',
          url: `${receiver.baseUrl}/h`,
        },
        LOOPBACK_SANDBOX,
      );
      await simulate(sandbox, 'ach.create', { account_id: account(), amount: '3.00', direction: 'credit' });
      await deliveriesSettled(sandbox);
      const synced = await services.sync.start({ kind: 'webhook-sends', profileId: profile.id, webhookId: webhook.id })
        .done;
      expect(synced).toMatchObject({ state: 'done' });
      const sends = services.cache.webhookSends.list({ profileId: profile.id, webhookId: webhook.id, limit: 100 }).rows;
      // The sandbox numbers attempts from 0.
      expect(sends.map((send) => [send.attempt_number, send.status]).sort()).toEqual([
        [0, 'error'],
        [1, 'error'],
        [2, 'sent'],
      ]);
      const byRef = services.reviews.ofRefs(
        profile.id,
        'webhook-send',
        sends.map((send) => send.id),
      );
      const ruleOf = (attempt: number): string | null | undefined =>
        byRef.get(sends.find((send) => send.attempt_number === attempt)?.id ?? '')?.byRule;
      // Rules run in name order; the first to match an item flags it.
      expect([ruleOf(0), ruleOf(1), ruleOf(2)]).toEqual(['Failing sends', 'Failing sends', 'Retried twice']);
      expect([...byRef.values()].every((review) => review.state === 'flagged' && review.disposition === null)).toBe(
        true,
      );
    } finally {
      await receiver.close();
    }

    const [applicationId] = sandbox.demo.accountApplications;
    if (applicationId === undefined) throw new Error('no demo application');
    const first = await services.sync.start({ kind: 'account-application', profileId: profile.id, applicationId }).done;
    expect(first).toMatchObject({ state: 'done' });
    const status = services.cache.accountApplications.get(profile.id, applicationId)?.application.status;
    services.reviews.saveRule(profile.id, {
      name: 'Watch this status',
      kind: 'application',
      applicationStatus: status as never,
    });
    // Rules apply after each sync, not when saved.
    expect(services.reviews.detail(profile.id, 'application', applicationId).review).toBeNull();
    await services.sync.start({ kind: 'account-application', profileId: profile.id, applicationId }).done;
    expect(services.reviews.detail(profile.id, 'application', applicationId).review).toMatchObject({
      state: 'flagged',
      byRule: 'Watch this status',
    });
    const audit = services.cache.audit.list({ profileId: profile.id, limit: 100 }).rows.map((row) => row.action);
    expect(audit.filter((action) => action === 'review.rule-flag')).toHaveLength(3);
  });

  it('flags transactions whose description has the rule’s words, without opening a sealed body', async () => {
    await syncPending();
    const rows = services.cache.pendingTransactions.list({
      profileId: profile.id,
      accountId: account(),
      limit: 1000,
    }).rows;
    const word = (rows.find((row) => typeof row.desc === 'string' && /[a-z]{4,}/i.test(row.desc))?.desc ?? '')
      .split(/[^A-Za-z]+/)
      .find((candidate) => candidate.length >= 4);
    if (word === undefined) throw new Error('no word to watch');
    services.reviews.saveRule(profile.id, { name: 'Merchant', kind: 'pending-transaction', descriptionHas: word });
    await syncPending();
    const searched = services.cache.pendingTransactions.list({
      profileId: profile.id,
      accountId: account(),
      search: word,
      limit: 1000,
    }).rows;
    expect(searched.length).toBeGreaterThan(0);
    const flagged = services.cache.pendingTransactions.list({
      profileId: profile.id,
      accountId: account(),
      review: 'flagged',
      limit: 1000,
    }).rows;
    expect(flagged.map((row) => row.row_key).sort()).toEqual(searched.map((row) => row.row_key).sort());
  });
});

describe('reviews at rest', () => {
  it('keeps notes, the reviewer’s name and the record reviewed sealed in the cache file', async () => {
    await syncPending();
    const [row] = services.cache.pendingTransactions.list({
      profileId: profile.id,
      accountId: account(),
      limit: 1,
    }).rows;
    services.reviews.setReviewer('Quentin Zebulon-Officer');
    services.reviews.give({
      profileId: profile.id,
      kind: 'pending-transaction',
      refs: [row?.row_key ?? ''],
      disposition: 'flagged',
      note: 'Xylophone wire to an unusual beneficiary',
    });
    services.reviews.saveRule(profile.id, { name: 'Words', kind: 'pending-transaction', descriptionHas: 'Quokkaland' });
    await services.close();
    const bytes = Buffer.concat(
      readdirSync(join(temp.folder, 'data'))
        .filter((file) => file.startsWith('cache.db'))
        .map((file) => readFileSync(join(temp.folder, 'data', file))),
    );
    for (const secret of ['Xylophone', 'Zebulon', 'Quokkaland', row?.desc ?? 'no description']) {
      expect(bytes.includes(Buffer.from(secret, 'utf8')), secret).toBe(false);
    }
    // What is in clear: the state, for filtering and counting by it.
    expect(bytes.includes(Buffer.from('flagged', 'utf8'))).toBe(true);
    services = await LedgerServices.open({
      dataFolder: join(temp.folder, 'data'),
      secretStore: secrets,
      profileStorage: new FileProfileStorage(join(temp.folder, 'data')),
      cacheWriter: 'inline',
    });
    expect(services.reviews.detail(profile.id, 'pending-transaction', row?.row_key ?? '').review).toMatchObject({
      note: 'Xylophone wire to an unusual beneficiary',
      reviewer: 'Quentin Zebulon-Officer',
    });
    const audit = services.cache.audit.list({ limit: 100 }).rows;
    expect(audit.map((entry) => entry.action)).toContain('reviewer.set');
    expect(JSON.stringify(audit)).not.toContain('Zebulon');
  });
});

describe('the report and clearing a profile’s data', () => {
  it('writes the report as HTML and CSV, then a clear drops the reviews but keeps the rules', async () => {
    await syncPending();
    const rows = services.cache.pendingTransactions.list({
      profileId: profile.id,
      accountId: account(),
      limit: 3,
    }).rows;
    const [a, b, c] = rows.map((row) => row.row_key);
    services.reviews.give({
      profileId: profile.id,
      kind: 'pending-transaction',
      refs: [a ?? ''],
      disposition: 'escalated',
      note: 'Sent to <b>MLRO</b> & legal',
    });
    services.reviews.give({
      profileId: profile.id,
      kind: 'pending-transaction',
      refs: [b ?? '', c ?? ''],
      disposition: 'cleared',
    });
    services.reviews.saveRule(profile.id, { name: 'Failing sends', kind: 'webhook-send', sendStatus: 'error' });
    const html = join(temp.folder, 'report.html');
    const csv = join(temp.folder, 'report.csv');
    const headBefore = services.cache.audit.chainHead();
    const written = await cli('review', 'report', '--profile', 'Sandbox', '--html', html, '--csv', csv);
    expect(written).toMatchObject({ code: 0, stderr: '' });
    expect(written.stdout).toContain('(1 flagged, escalated or changed item)');
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('Sent to &lt;b&gt;MLRO&lt;/b&gt; &amp; legal');
    expect(page).not.toContain('<b>MLRO</b>');
    // Items are headed by what they are (issue 38); each keeps its ref beside it.
    expect(page).toContain(`Ref ${a ?? 'no ref'}`);
    expect(page).not.toContain(b ?? 'no ref');
    // The report quotes the chain head as it verified then; the log, with the report's own
    // entry appended after it, still verifies (a later head, one entry on).
    const verified = await cliJson<{ ok: boolean; head: string; lastId: number }>('audit', 'verify');
    expect(verified.ok).toBe(true);
    expect(page).toContain('The audit log verified when this report was made');
    expect(headBefore.head).toMatch(/^[0-9a-f]{64}$/);
    expect(page).toContain(headBefore.head ?? 'no head');
    expect(verified.lastId).toBe((headBefore.lastId ?? 0) + 1);
    expect(verified.head).not.toBe(headBefore.head);
    // Counts by kind in words (issue 38's one layout): cleared, flagged, escalated, changed, total.
    expect(page).toMatch(
      /<td>Pending transactions<\/td><td class="count">2<\/td><td class="count">0<\/td><td class="count">1<\/td><td class="count">0<\/td><td class="count">3<\/td>/,
    );
    const lines = readFileSync(csv, 'utf8').split('\r\n');
    // One row per reported item, with the columns a person reads.
    expect(lines[0]).toBe(
      'Kind,Item,Ref,Date,Time,Account,Description,Amount,Type,Source,Disposition,By,When,Note,History,Changes,Record as cached',
    );
    const itemLines = lines.slice(1).filter((line) => line.startsWith('Pending transaction,'));
    expect(itemLines).toHaveLength(1);
    // What it is, then its ref and date; the account by its name, the disposition in words.
    expect(itemLines[0]).toContain(`,${a ?? ''},${rows[0]?.date ?? 'no date'},`);
    const naming = services.cache.accounts.names(profile.id).get(account());
    expect(itemLines[0]).toContain(`,${naming === undefined ? 'no account name' : accountLabel(naming)},`);
    expect(itemLines[0]).toContain(',escalated,');

    // The report is in the log (in record.sqlite since the cut-over); an officer's entry edited in the file (triggers dropped, as
    // someone holding only the file would) makes `audit verify` fail and name it.
    const entries = services.cache.audit.list({ profileId: profile.id, limit: 100 }).rows;
    expect(entries[0]).toMatchObject({
      action: 'review.report',
      detail: expect.stringMatching(/^html and csv: 1 item/) as string,
    });
    const escalated = entries.find((entry) => entry.action === 'review.escalated');
    if (escalated === undefined) throw new Error('no review entry in the log');
    const raw = new DatabaseSync(join(temp.folder, 'data', 'record.sqlite'));
    raw.exec('DROP TRIGGER IF EXISTS audit_log_no_update; DROP TRIGGER IF EXISTS audit_log_no_delete;');
    raw.prepare("UPDATE audit_log SET action = 'review.cleared' WHERE id = ?").run(escalated.id);
    raw.close();
    const tampered = await cli('audit', 'verify', '--json');
    expect(tampered.code).toBe(1);
    expect(JSON.parse(tampered.stdout)).toMatchObject({
      ok: false,
      problem: { kind: 'entry-changed', entryId: escalated.id, entry: { action: 'review.cleared' } },
    });

    const reviewedBefore = services.reviews.list({ profileId: profile.id }).rows;
    const historyBefore = services.reviews.table.history(profile.id, 'pending-transaction', a ?? '');
    expect(reviewedBefore).toHaveLength(3);
    expect(historyBefore.length).toBeGreaterThan(0);
    await services.clearCachedData(profile.id);
    // Clearing the cache drops the bank's copies, never the officer's record (issue 34).
    expect(services.reviews.list({ profileId: profile.id }).rows).toEqual(reviewedBefore);
    const [cleared, beforeClear] = services.cache.audit.list({ profileId: profile.id, limit: 2 }).rows;
    expect(cleared).toMatchObject({
      action: 'cache.clear',
      target: profile.id,
      detail: "the profile's cached records were dropped (they re-sync); its reviews, notes and watch rules stay",
    });
    expect(beforeClear?.action).not.toBe('reviews.drop');
    expect(services.reviews.table.history(profile.id, 'pending-transaction', a ?? '')).toEqual(historyBefore);
    expect(services.reviews.rules.list(profile.id).map((rule) => rule.name)).toEqual(['Failing sends']);
  });
});
