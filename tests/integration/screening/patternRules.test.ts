/**
 * Pattern rules and rule previews on a real cache (an SQLite file, sealed rows, the data key
 * in a keychain): structuring and velocity over an account's transactions, applicants of
 * different applications sharing a personal field, and previews that save nothing.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OfflineCache } from '../../../src/main/services/cache/offlineCache.ts';
import { Statements } from '../../../src/main/services/cache/statements.ts';
import { executeBatches } from '../../../src/main/services/cache/writeBatch.ts';
import { Credentials } from '../../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import {
  PatternRuleEvaluator,
  type AccountWindowSet,
  type SharedFieldSet,
} from '../../../src/main/services/review/patternRules.ts';
import { ReviewProblem } from '../../../src/main/services/review/reviewProblem.ts';
import { RulePreviews } from '../../../src/main/services/review/rulePreview.ts';
import { ReviewService } from '../../../src/main/services/review/reviewService.ts';
import type { AccountApplicationResponse, PendingTransaction } from '../../../src/shared/bank/index.ts';
import { patternRule, type PatternRuleInput } from '../../../src/shared/review/patternRule.ts';
import { pendingTransactionOf } from '../services/support/records.ts';
import { makeTempFolder } from '../services/support/tempFolder.ts';

const PROFILE = 'profile-patterns';
let temp: ReturnType<typeof makeTempFolder>;
let cache: OfflineCache;

beforeEach(async () => {
  temp = makeTempFolder('ledgerdesk-patterns-');
  cache = await OfflineCache.open({
    folder: temp.folder,
    credentials: new Credentials(new InMemorySecretStore()),
    writer: 'inline',
  });
});
afterEach(async () => {
  await cache.close();
  temp.remove();
});

/** A transaction of an account at a moment, of an amount and type. */
function transaction(
  accountId: string,
  n: number,
  at: string,
  amount: string,
  type: PendingTransaction['type'],
  typeSource: PendingTransaction['type_source'] = 'ach',
): PendingTransaction {
  return {
    ...pendingTransactionOf(accountId, n),
    amount,
    date: at.slice(0, 10),
    extended_timestamp: `${at.slice(0, 19)}Z`,
    extended_timestamp_precise: `${at.slice(0, 19)}.000000Z`,
    type,
    type_source: typeSource,
    trace_id: `trace_${accountId}_${String(n)}`,
  };
}

function write(accountId: string, transactions: PendingTransaction[]): void {
  const { checkpoint } = cache.checkpoints.begin(
    PROFILE,
    'pending-transactions',
    accountId,
    '{}',
    new Date().toISOString(),
  );
  cache.transaction(() => cache.pendingTransactions.writePage(PROFILE, accountId, transactions, checkpoint.generation));
}

const STRUCTURING: PatternRuleInput = {
  name: 'Structured deposits',
  template: 'structuring',
  windowDays: 3,
  eachUnder: '10000.00',
  sumAtLeast: '25000.00',
  countAtLeast: 3,
};

function seedAccounts(): void {
  // acct_split: three deposits of 9,000 over two days, and one of 12,000 (over the bound) beside them.
  write('acct_split', [
    transaction('acct_split', 1, '2025-06-02T10:00:00Z', '9000.00', 'deposit'),
    transaction('acct_split', 2, '2025-06-03T09:00:00Z', '9000.00', 'deposit'),
    transaction('acct_split', 3, '2025-06-03T15:00:00Z', '9000.00', 'deposit'),
    transaction('acct_split', 4, '2025-06-03T16:00:00Z', '12000.00', 'deposit'),
    transaction('acct_split', 5, '2025-06-20T16:00:00Z', '-50.00', 'charge', 'card'),
  ]);
  // acct_spread: the same deposits, a week apart: no window of 3 days holds three.
  write('acct_spread', [
    transaction('acct_spread', 1, '2025-06-01T10:00:00Z', '9000.00', 'deposit'),
    transaction('acct_spread', 2, '2025-06-08T10:00:00Z', '9000.00', 'deposit'),
    transaction('acct_spread', 3, '2025-06-15T10:00:00Z', '9000.00', 'deposit'),
  ]);
  // acct_holds: holds and releases are money set aside, never deposits.
  write('acct_holds', [
    transaction('acct_holds', 1, '2025-06-02T10:00:00Z', '9000.00', 'hold'),
    transaction('acct_holds', 2, '2025-06-02T11:00:00Z', '9000.00', 'hold_release'),
    transaction('acct_holds', 3, '2025-06-02T12:00:00Z', '9000.00', 'hold_release'),
  ]);
}

describe('structuring and velocity rules', () => {
  it('flag the account whose credits under the bound sum past the threshold within the window, with the transactions', () => {
    seedAccounts();
    const result = new PatternRuleEvaluator(cache.database).evaluate(PROFILE, patternRule.parse(STRUCTURING));
    expect(result.setCount).toBe(1);
    expect(result.itemCount).toBe(3);
    const [set] = result.sets as AccountWindowSet[];
    expect(set).toMatchObject({
      kind: 'account-window',
      accountId: 'acct_split',
      from: '2025-06-02',
      to: '2025-06-03',
      count: 3,
      sumCents: 2_700_000,
    });
    expect(set?.items.map((item) => item.amountCents)).toEqual([900_000, 900_000, 900_000]);
    // The refs are the rows' keys, what a review of the transaction is filed under.
    const refs = (
      cache.database
        .prepare(
          `SELECT p.row_key FROM pending_transactions AS p JOIN pending_transaction_scopes AS s ON s.id = p.scope
           WHERE s.account_id = 'acct_split' AND p.amount_cents = 900000`,
        )
        .all() as { row_key: string }[]
    ).map((row) => row.row_key);
    expect(set?.items.map((item) => item.ref).sort()).toEqual(refs.sort());
  });

  it('widen and narrow with their parameters: a longer window, a type source', () => {
    seedAccounts();
    const evaluator = new PatternRuleEvaluator(cache.database);
    const wide = evaluator.evaluate(PROFILE, patternRule.parse({ ...STRUCTURING, windowDays: 15 }));
    expect(wide.sets.map((set) => (set as AccountWindowSet).accountId)).toEqual(['acct_split', 'acct_spread']);
    const byWire = evaluator.evaluate(PROFILE, patternRule.parse({ ...STRUCTURING, typeSource: 'wire' }));
    expect(byWire.setCount).toBe(0);
  });

  it('join overlapping windows of an account into one set', () => {
    write(
      'acct_run',
      Array.from({ length: 10 }, (_, day) =>
        transaction('acct_run', day, `2025-07-${String(day + 1).padStart(2, '0')}T12:00:00Z`, '9500.00', 'deposit'),
      ),
    );
    const result = new PatternRuleEvaluator(cache.database).evaluate(PROFILE, patternRule.parse(STRUCTURING));
    expect(result.sets).toHaveLength(1);
    expect(result.sets[0]).toMatchObject({ from: '2025-07-01', to: '2025-07-10', count: 10, sumCents: 9_500_000 });
  });

  it('count debits for a velocity rule, and never holds', () => {
    seedAccounts();
    write(
      'acct_busy',
      Array.from({ length: 6 }, (_, n) =>
        transaction('acct_busy', n, `2025-06-05T0${String(n)}:00:00Z`, '-20.00', 'charge', 'card'),
      ),
    );
    const evaluator = new PatternRuleEvaluator(cache.database);
    const velocity = evaluator.evaluate(
      PROFILE,
      patternRule.parse({ name: 'Card bursts', template: 'velocity', windowDays: 1, flow: 'debits', countAtLeast: 5 }),
    );
    expect(velocity.sets).toEqual([expect.objectContaining({ accountId: 'acct_busy', count: 6, sumCents: 12_000 })]);
    const both = evaluator.evaluate(
      PROFILE,
      patternRule.parse({
        name: 'Large moves',
        template: 'velocity',
        windowDays: 1,
        flow: 'both',
        sumAtLeast: '20000.00',
      }),
    );
    expect(both.sets.map((set) => (set as AccountWindowSet).accountId)).toEqual(['acct_split']);
  });

  it('refuse parameters out of range, naming them', () => {
    expect(patternRule.safeParse({ ...STRUCTURING, windowDays: 0 }).success).toBe(false);
    expect(patternRule.safeParse({ ...STRUCTURING, eachUnder: '10000' }).error?.issues[0]?.path).toEqual(['eachUnder']);
    expect(
      patternRule.safeParse({ name: 'v', template: 'velocity', windowDays: 2, flow: 'credits' }).error?.issues[0]
        ?.message,
    ).toContain('needs countAtLeast, sumAtLeast or both');
  });
});

function personRecord(id: string, email: string, phone: string, street: string): Record<string, unknown> {
  return {
    id,
    first_name: `First${id}`,
    middle_name: null,
    last_name: `Last${id}`,
    date_of_birth: '1980-01-01',
    email_address: email,
    phone_number: phone,
    citizenship: 'US',
    physical_address: { street_line_1: street, city: 'Washington', state: 'DC', postal_code: '20500' },
    mailing_address: null,
    document_ids: null,
    userdata: null,
    bankdata: null,
    created_at: '2025-06-01T00:00:00Z',
    updated_at: '2025-06-01T00:00:00Z',
  };
}

function applicationOf(id: string, person: string): AccountApplicationResponse {
  return {
    id,
    account_id: null,
    account_number: null,
    account_number_reservation_id: null,
    account_product_id: 'apt_1',
    bankdata: null,
    business_application_id: null,
    deposit_id: `dep_${id}`,
    ownership_type: 'personal',
    person_applications: [{ id: person, roles: ['owner', 'signer'] }],
    primary_person_application_id: person,
    product: null,
    status: 'submitted',
    userdata: null,
    created_at: '2025-06-01T00:00:00Z',
    updated_at: '2025-06-01T00:00:00Z',
  };
}

function seedApplicants(): void {
  const statements = new Statements(cache.database);
  const people = [
    personRecord('apsn_1', 'shared@example.com', '2025550101', '1 Main Street'),
    personRecord('apsn_2', ' Shared@Example.COM ', '2025550102', '2 Elm Street'),
    personRecord('apsn_3', 'own@example.com', '+1 (202) 555-0101', '1 MAIN ST.'),
    personRecord('apsn_4', 'alone@example.com', '2025550104', '4 Oak Avenue'),
  ];
  executeBatches(
    cache.database,
    statements,
    cache.applicants.planReceived(
      PROFILE,
      'person',
      people.map((value) => ({ id: String(value['id']), ok: true as const, value })),
      new Date().toISOString(),
    ).batches,
  );
  const applications = [
    applicationOf('aact_1', 'apsn_1'),
    applicationOf('aact_2', 'apsn_2'),
    applicationOf('aact_3', 'apsn_3'),
    applicationOf('aact_4', 'apsn_4'),
    applicationOf('aact_5', 'apsn_4'),
  ];
  executeBatches(
    cache.database,
    statements,
    cache.accountApplications.planPage(PROFILE, applications, new Date().toISOString()).batches,
  );
}

describe('applicants of different applications sharing a personal field', () => {
  it('are found by keyed digests of the normalised field, never by the value in clear', () => {
    seedApplicants();
    const evaluator = new PatternRuleEvaluator(cache.database, () => cache.sealer);
    const byEmail = evaluator.evaluate(
      PROFILE,
      patternRule.parse({ name: 'Shared email', template: 'shared-applicant-field', field: 'email' }),
    );
    expect(byEmail.sets).toEqual([
      expect.objectContaining({ field: 'email', applications: ['aact_1', 'aact_2'], applicants: ['apsn_1', 'apsn_2'] }),
    ]);
    const byPhone = evaluator.evaluate(
      PROFILE,
      patternRule.parse({ name: 'Shared phone', template: 'shared-applicant-field', field: 'phone' }),
    );
    expect((byPhone.sets as SharedFieldSet[]).map((set) => set.applicants)).toEqual([['apsn_1', 'apsn_3']]);
    const byAddress = evaluator.evaluate(
      PROFILE,
      patternRule.parse({ name: 'Shared address', template: 'shared-applicant-field', field: 'address' }),
    );
    expect((byAddress.sets as SharedFieldSet[]).map((set) => set.applications)).toEqual([['aact_1', 'aact_3']]);
    // One applicant named by two applications (aact_4, aact_5) is one person, not a shared field.
    expect(byEmail.sets.some((set) => (set as SharedFieldSet).applicants.includes('apsn_4'))).toBe(false);
    const threeApplications = evaluator.evaluate(
      PROFILE,
      patternRule.parse({ name: 'Three', template: 'shared-applicant-field', field: 'email', applicationsAtLeast: 3 }),
    );
    expect(threeApplications.setCount).toBe(0);
  });

  it('keep no email, phone or street in clear in the cache file', async () => {
    seedApplicants();
    const digests = cache.database.prepare('SELECT field, digest FROM applicant_field_digests').all() as {
      field: string;
      digest: string;
    }[];
    expect(digests.length).toBe(12);
    expect(digests.every((row) => /^[A-Za-z0-9_-]{16}$/.test(row.digest))).toBe(true);
    await cache.close();
    const bytes =
      readFileSync(`${temp.folder}/cache.db`).toString('latin1') +
      readFileSync(`${temp.folder}/cache.db-wal`, { flag: 'a+' }).toString('latin1');
    for (const clear of ['shared@example.com', '2025550101', 'Main Street', 'main st'])
      expect(bytes).not.toContain(clear);
    cache = await OfflineCache.open({
      folder: temp.folder,
      credentials: new Credentials(new InMemorySecretStore()),
      writer: 'inline',
    });
  });

  it('fill, once, the digests of applicants cached before them (cache migration 28)', () => {
    seedApplicants();
    // As a cache made before migration 28 is after it: no digests, the marker set.
    cache.database.exec(
      "DELETE FROM applicant_field_digests; INSERT INTO cache_meta (key, value) VALUES ('applicant_field_digests_pending', '1')",
    );
    const rule = patternRule.parse({ name: 'Shared email', template: 'shared-applicant-field', field: 'email' });
    expect(new PatternRuleEvaluator(cache.database).evaluate(PROFILE, rule).setCount).toBe(0);
    expect(new PatternRuleEvaluator(cache.database, () => cache.sealer).evaluate(PROFILE, rule).setCount).toBe(1);
    expect(
      cache.database.prepare("SELECT value FROM cache_meta WHERE key = 'applicant_field_digests_pending'").get(),
    ).toBeUndefined();
  });

  it('go with the applicant when the applicant changes or goes', () => {
    seedApplicants();
    const statements = new Statements(cache.database);
    const moved = personRecord('apsn_2', 'new@example.com', '2025550102', '2 Elm Street');
    executeBatches(
      cache.database,
      statements,
      cache.applicants.planReceived(
        PROFILE,
        'person',
        [{ id: 'apsn_2', ok: true as const, value: moved }],
        new Date().toISOString(),
      ).batches,
    );
    const rule = patternRule.parse({ name: 'Shared email', template: 'shared-applicant-field', field: 'email' });
    expect(new PatternRuleEvaluator(cache.database).evaluate(PROFILE, rule).setCount).toBe(0);
    cache.applicants.dropProfile(PROFILE);
    expect((cache.database.prepare('SELECT count(*) AS n FROM applicant_field_digests').get() as { n: number }).n).toBe(
      0,
    );
  });
});

describe('rule previews', () => {
  it('count what an item rule matches, what is already reviewed, what it would flag, and list the first items, saving nothing', () => {
    seedAccounts();
    const reviews = new ReviewService({ cache, profileName: () => 'Tests' });
    const reviewed = (
      cache.database
        .prepare('SELECT row_key FROM pending_transactions WHERE amount_cents = 900000 ORDER BY id LIMIT 1')
        .get() as { row_key: string }
    ).row_key;
    reviews.give({ profileId: PROFILE, kind: 'pending-transaction', refs: [reviewed], disposition: 'cleared' });
    const before = cache.database
      .prepare(
        'SELECT (SELECT count(*) FROM watch_rules) AS rules, (SELECT count(*) FROM reviews) AS reviews, (SELECT count(*) FROM audit_log) AS audit',
      )
      .get();
    const preview = new RulePreviews(cache).watchRule(
      PROFILE,
      { name: 'Big deposits', kind: 'pending-transaction', amountBeyond: '9000.00' },
      3,
    );
    expect(preview.counts).toEqual({ matched: 10, alreadyReviewed: 1, wouldFlag: 9 });
    expect(preview.first).toHaveLength(3);
    expect(preview.first.map((item) => item.ref)).not.toContain(reviewed);
    expect(preview.rule).toBe('pending-transaction: amount ≥ 9000.00');
    expect(
      cache.database
        .prepare(
          'SELECT (SELECT count(*) FROM watch_rules) AS rules, (SELECT count(*) FROM reviews) AS reviews, (SELECT count(*) FROM audit_log) AS audit',
        )
        .get(),
    ).toEqual(before);
    // What the preview said is what saving the rule then flags.
    reviews.saveRule(PROFILE, { name: 'Big deposits', kind: 'pending-transaction', amountBeyond: '9000.00' });
    expect(reviews.afterSync(PROFILE, 'pending-transactions').flaggedByRule['Big deposits']).toBe(9);
  });

  it('preview a pattern rule: its sets and the items it would flag', () => {
    seedAccounts();
    const preview = new RulePreviews(cache).patternRule(PROFILE, STRUCTURING);
    expect(preview.kind).toBe('pending-transaction');
    expect(preview.counts).toEqual({ sets: 1, matched: 3, alreadyReviewed: 0, wouldFlag: 3 });
    expect(preview.firstSets).toHaveLength(1);
    expect(preview.rule).toContain('structuring: at least 3 credits, each under 10000.00');
  });

  it('refuse an invalid rule, naming the field, as saving it would', () => {
    const previews = new RulePreviews(cache);
    expect(() => previews.watchRule(PROFILE, { name: 'x', kind: 'pending-transaction', amountBeyond: 'lots' })).toThrow(
      ReviewProblem,
    );
    expect(() => previews.watchRule(PROFILE, { name: 'x', kind: 'pending-transaction', amountBeyond: 'lots' })).toThrow(
      /amountBeyond/,
    );
    expect(() => previews.patternRule(PROFILE, { ...STRUCTURING, countAtLeast: 1 })).toThrow(/countAtLeast/);
  });
});
