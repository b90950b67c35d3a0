/**
 * The record cut-over (issue 34): the officer's record lives in record.sqlite, attached to the
 * cache's connections, under its own key. Against real files, the real sandbox and a real Secret
 * Service (scripts/with-keyring.sh):
 * - a folder from before the cut-over (tests/fixtures/record-before-cutover, made by main before
 *   this change) opens with every review, note, step of history, watch rule and the reviewer's
 *   name, its audit log verifying, and its cache file no longer holding them; and the same for a
 *   folder made by af86022 itself (tests/fixtures/record-af86022: no record.sqlite yet);
 * - a kill -9 during that first start's move leaves all of it or none of it, and the next start
 *   finishes the move;
 * - a reset of the cache's data key, and a deleted cache.db, keep every review, note, step and
 *   rule, and the audit chain verifies.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cacheDataKeyAccount } from '../../../src/main/services/credentials/credentials.ts';
import { KeyringSecretStore } from '../../../src/main/services/credentials/keyringSecretStore.ts';
import { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { ReviewQueue } from '../../../src/main/services/review/reviewQueue.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import type { Profile } from '../../../src/main/services/profiles/profile.ts';
import {
  copyCutoverFolder,
  cutoverExpected,
  loadCutoverKeychain,
  type CutoverFixture,
} from './support/cutoverFixture.ts';
import { startBank, type RunningSandbox } from './support/sandboxBank.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';
if (!secretServiceHere) {
  process.stderr.write(
    'record cut-over tests skipped: no throwaway Secret Service. Run them with: npm run test:integration -- tests/integration/services/recordCutover.test.ts\n',
  );
}

const CHILD = resolve(import.meta.dirname, 'support/cutoverChild.ts');

function openServices(folder: string, secretStore: KeyringSecretStore): Promise<LedgerServices> {
  return LedgerServices.open({
    dataFolder: folder,
    secretStore,
    profileStorage: new FileProfileStorage(folder),
    cacheWriter: 'inline',
  });
}

/** The tables of a file's main schema. */
function tablesOf(file: string): Set<string> {
  const database = new DatabaseSync(file);
  try {
    return new Set(
      (database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (row) => row.name,
      ),
    );
  } finally {
    database.close();
  }
}

function countOf(file: string, table: string): number {
  const database = new DatabaseSync(file);
  try {
    return (database.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    database.close();
  }
}

function copyMarkIn(recordFile: string): string | null {
  const database = new DatabaseSync(recordFile);
  try {
    const row = database.prepare("SELECT value FROM record_meta WHERE key = 'copied_from_cache'").get() as
      { value: string } | undefined;
    return row?.value ?? null;
  } finally {
    database.close();
  }
}

/** Every review, note and step of history the fixture's build listed, rules and reviewer too. */
async function expectFixtureRecord(
  services: LedgerServices,
  fixture: CutoverFixture = 'record-before-cutover',
): Promise<void> {
  const expected = cutoverExpected(fixture);
  for (const review of expected.reviews) {
    const detail = services.reviews.detail(expected.profileId, 'pending-transaction', review.ref);
    expect({ ref: review.ref, state: detail.review?.state, note: detail.review?.note ?? null }).toEqual({
      ref: review.ref,
      state: review.state,
      note: review.note,
    });
    expect(detail.history).toHaveLength(review.steps);
    // A person's review keeps the record as reviewed (a rule's flag has none).
    if (review.note !== null) expect(detail.reviewedRecord).not.toBeNull();
  }
  expect(services.reviews.list({ profileId: expected.profileId }).rows).toHaveLength(expected.reviews.length);
  expect(services.reviews.rules.list(expected.profileId).map((rule) => rule.name)).toEqual(expected.rules);
  expect(services.reviews.reviewer.get().name).toBe(expected.reviewer);
  expect((await services.cache.audit.verify()).problem).toBeNull();
}

describe.skipIf(!secretServiceHere)('a data folder made by af86022 (no record.sqlite)', () => {
  it('opens with every review, note, step, rule and the reviewer, its log verifying, moved into a new record.sqlite', async () => {
    const store = new KeyringSecretStore(`Ledgerdesk-test-af86022-${randomUUID()}`);
    await loadCutoverKeychain(store, 'record-af86022');
    const temp = makeTempFolder();
    try {
      const folder = join(temp.folder, 'data');
      copyCutoverFolder(folder, 'record-af86022');
      expect(existsSync(join(folder, 'record.sqlite'))).toBe(false);
      expect(tablesOf(join(folder, 'cache.db')).has('reviews')).toBe(true);
      const expected = cutoverExpected('record-af86022');
      for (let start = 0; start < 2; start += 1) {
        const services = await openServices(folder, store);
        try {
          expect(services.cache.opened.record).toBe('attached');
          await expectFixtureRecord(services, 'record-af86022');
        } finally {
          await services.close();
        }
      }
      const cacheTables = tablesOf(join(folder, 'cache.db'));
      for (const table of ['reviews', 'review_history', 'watch_rules', 'audit_log']) {
        expect(cacheTables.has(table)).toBe(false);
      }
      expect(countOf(join(folder, 'record.sqlite'), 'reviews')).toBe(expected.reviews.length);
    } finally {
      temp.remove();
    }
  });
});

describe.skipIf(!secretServiceHere)('a data folder from before the cut-over', () => {
  let store: KeyringSecretStore;
  let temp: { folder: string; remove: () => void };
  let folder: string;

  beforeEach(async () => {
    store = new KeyringSecretStore(`Ledgerdesk-test-cutover-${randomUUID()}`);
    await loadCutoverKeychain(store);
    temp = makeTempFolder();
    folder = join(temp.folder, 'data');
    copyCutoverFolder(folder);
  });

  afterEach(() => {
    temp.remove();
  });

  it('opens with every review, note, step, rule and the reviewer, its log verifying, moved out of cache.db', async () => {
    const expected = cutoverExpected();
    expect(tablesOf(join(folder, 'cache.db')).has('reviews')).toBe(true);
    for (let start = 0; start < 2; start += 1) {
      const services = await openServices(folder, store);
      try {
        expect(services.cache.opened.record).toBe('attached');
        expect(services.cache.opened.messages).toEqual([]);
        await expectFixtureRecord(services);
      } finally {
        await services.close();
      }
    }
    // The cache file holds none of the record's tables now; record.sqlite holds them all.
    const cacheTables = tablesOf(join(folder, 'cache.db'));
    for (const table of ['reviews', 'review_history', 'watch_rules', 'watch_rule_names', 'audit_log']) {
      expect(cacheTables.has(table)).toBe(false);
    }
    expect(countOf(join(folder, 'record.sqlite'), 'reviews')).toBe(expected.reviews.length);
    expect(JSON.parse(copyMarkIn(join(folder, 'record.sqlite')) ?? '{}')).toMatchObject({
      rows: { reviews: expected.reviews.length },
    });
  });

  it("loses nothing when the first start's move is killed with SIGKILL at any moment", async () => {
    const expected = cutoverExpected();
    const service = store.service;
    for (const delayMs of [0, 1, 2, 5, 10, 20, 40, 80]) {
      const attempt = join(temp.folder, `attempt-${String(delayMs)}`);
      copyCutoverFolder(attempt);
      const child = spawn(process.execPath, [CHILD, attempt], {
        env: { ...process.env, LEDGERDESK_TEST_KEYRING_SERVICE: service },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const exited = new Promise<NodeJS.Signals | null>((done) =>
        child.once('exit', (_code, signal) => {
          done(signal);
        }),
      );
      await new Promise<void>((started, failed) => {
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          if (chunk.includes('opening')) started();
        });
        child.once('exit', () => {
          failed(new Error(`the child stopped before opening: ${stderr}`));
        });
      });
      await new Promise((wait) => setTimeout(wait, delayMs));
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      // All or nothing: either the record holds every review (and says so), or it holds none
      // and the cache file still has them all.
      const recordFile = join(attempt, 'record.sqlite');
      const mark = copyMarkIn(recordFile);
      if (mark === null) {
        expect(countOf(recordFile, 'reviews')).toBe(0);
        expect(countOf(join(attempt, 'cache.db'), 'reviews')).toBe(expected.reviews.length);
      } else {
        expect(countOf(recordFile, 'reviews')).toBe(expected.reviews.length);
        expect(countOf(recordFile, 'review_history')).toBe(
          expected.reviews.reduce((sum, review) => sum + review.steps, 0),
        );
      }
      // The next start finishes the move, whatever the kill left.
      const services = await openServices(attempt, store);
      try {
        expect(services.cache.opened.record).toBe('attached');
        await expectFixtureRecord(services);
      } finally {
        await services.close();
      }
      expect(tablesOf(join(attempt, 'cache.db')).has('reviews')).toBe(false);
    }
  });
});

describe.skipIf(!secretServiceHere)("the officer's record outlives the cache file and its key", () => {
  let sandbox: RunningSandbox;
  let temp: { folder: string; remove: () => void };
  let store: KeyringSecretStore;
  let folder: string;
  let profile: Profile;
  let refs: string[];

  async function syncAll(services: LedgerServices): Promise<void> {
    for (const accountId of sandbox.demo.accounts) {
      const outcome = await services.sync.start({ kind: 'pending-transactions', profileId: profile.id, accountId })
        .done;
      expect(outcome.state).toBe('done');
    }
  }

  beforeAll(async () => {
    sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 30 });
    temp = makeTempFolder();
    folder = join(temp.folder, 'data');
    store = new KeyringSecretStore(`Ledgerdesk-test-cutover-${randomUUID()}`);
    const services = await openServices(folder, store);
    try {
      profile = await services.addProfile(
        { name: 'Sandbox', baseUrl: sandbox.baseUrl, authScheme: 'basic', keyId: sandbox.keyId, production: false },
        sandbox.keySecret,
      );
      await syncAll(services);
      refs = (
        services.cache.database.prepare('SELECT row_key FROM pending_transactions ORDER BY id LIMIT 5').all() as {
          row_key: string;
        }[]
      ).map((row) => row.row_key);
      services.reviews.give({
        profileId: profile.id,
        kind: 'pending-transaction',
        refs: refs.slice(0, 3),
        disposition: 'cleared',
        note: 'seen with the customer',
      });
      services.reviews.give({
        profileId: profile.id,
        kind: 'pending-transaction',
        refs: refs.slice(3),
        disposition: 'escalated',
        note: 'sent to the MLRO',
      });
      services.reviews.give({
        profileId: profile.id,
        kind: 'pending-transaction',
        refs: refs.slice(0, 1),
        disposition: 'flagged',
        note: 'a second look',
      });
      services.reviews.saveRule(profile.id, {
        name: 'Debits beyond 150',
        kind: 'pending-transaction',
        amountBeyond: '-150.00',
      });
      services.reviews.setReviewer('Officer Cutover');
    } finally {
      await services.close();
    }
  });

  afterAll(async () => {
    await sandbox.close();
    temp.remove();
  });

  /** What the officer made, as the services show it. */
  function recordOf(services: LedgerServices): unknown {
    return {
      details: refs.map((ref) => {
        const detail = services.reviews.detail(profile.id, 'pending-transaction', ref);
        return { review: detail.review, history: detail.history, reviewedRecord: detail.reviewedRecord };
      }),
      rules: services.reviews.rules.list(profile.id),
      reviewer: services.reviews.reviewer.get().name,
    };
  }

  async function recordNow(): Promise<unknown> {
    const services = await openServices(folder, store);
    try {
      return recordOf(services);
    } finally {
      await services.close();
    }
  }

  /**
   * Once the bank has sent its records again, each review is on its item: the record is cached
   * under the ref the review names, and the queue lists it neither as changed since review nor
   * as waiting for a first look (the row keys outlive the cache: record/cacheIdentity.ts).
   */
  function expectReviewsOnTheirItems(services: LedgerServices): void {
    const cached = services.cache.database
      .prepare(`SELECT count(*) AS n FROM pending_transactions WHERE row_key IN (${refs.map(() => '?').join(', ')})`)
      .get(...refs) as { n: number };
    expect(cached.n).toBe(refs.length);
    const queue = new ReviewQueue(services.cache, services.reviews);
    for (const state of ['changed', 'unreviewed'] as const) {
      const listed = queue.list({ profileId: profile.id, state, limit: 500 }).rows.map((row) => row.ref);
      expect(listed.filter((ref) => refs.includes(ref))).toEqual([]);
    }
    const escalated = queue.list({ profileId: profile.id, state: 'escalated', limit: 500 }).rows.map((row) => row.ref);
    expect(escalated).toEqual(expect.arrayContaining(refs.slice(3)));
  }

  it('keeps every review, note, step, rule and the audit chain when cache.db is deleted', async () => {
    const before = await recordNow();
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(folder, `cache.db${suffix}`), { force: true });
    expect(existsSync(join(folder, 'cache.db'))).toBe(false);
    const services = await openServices(folder, store);
    try {
      expect(services.cache.opened.record).toBe('attached');
      expect(recordOf(services)).toEqual(before);
      expect((await services.cache.audit.verify()).problem).toBeNull();
      // The bank sends its records again (its rule flags what no one reviewed): the officer's
      // reviews are still all there beside them, unchanged.
      await syncAll(services);
      const listed = services.reviews.list({ profileId: profile.id }).rows.map((row) => row.ref);
      expect(listed).toEqual(expect.arrayContaining(refs));
      expect(recordOf(services)).toEqual(before);
      expectReviewsOnTheirItems(services);
    } finally {
      await services.close();
    }
  });

  it('keeps every review, note, step and rule when the cache’s data key is lost, and the log verifies', async () => {
    const before = await recordNow();
    const raw = new DatabaseSync(join(folder, 'cache.db'));
    const { value: cacheId } = raw.prepare("SELECT value FROM cache_meta WHERE key = 'cache_id'").get() as {
      value: string;
    };
    raw.close();
    expect(await store.delete(cacheDataKeyAccount(cacheId))).toBe(true);
    const services = await openServices(folder, store);
    try {
      expect(services.cache.opened.dataKeyReset).toBe('data-key-lost');
      expect(
        services.cache.pendingTransactions.count({ profileId: profile.id, accountId: sandbox.demo.accounts[0] ?? '' }),
      ).toBe(0);
      expect(recordOf(services)).toEqual(before);
      const notes = refs.map((ref) => services.reviews.detail(profile.id, 'pending-transaction', ref).review?.note);
      expect(notes).toEqual([
        'a second look',
        'seen with the customer',
        'seen with the customer',
        'sent to the MLRO',
        'sent to the MLRO',
      ]);
      expect((await services.cache.audit.verify()).problem).toBeNull();
      // The reset is in the log, as a failure, saying the record was kept.
      const [entry] = services.cache.audit.list({ profileId: '', limit: 1 }).rows;
      expect(entry).toMatchObject({ action: 'cache.data-key-reset', result: 'failed' });
      expect(entry?.detail).toContain('kept in record.sqlite');
      // The bank sends them again under the same row keys: every review is back on its item.
      await syncAll(services);
      expect(recordOf(services)).toEqual(before);
      expectReviewsOnTheirItems(services);
    } finally {
      await services.close();
    }
  });
});
