/**
 * Two laptops of one team name the same bank record alike. Each has its own data folder, its own
 * encrypted cache file (its own data key, so its own names for pending transactions) and its own
 * keychain, and maps the team's workspace to a profile of its own (random ids differ); both
 * cache the same pending transactions of one bank account. Alice decides on a transaction by her
 * laptop's ref; Bob's laptop pulls, verifies and finds the decision under the very name it
 * computes for its own copy. Clearing Bob's profile's cache drops his mirror only (the server's
 * record, his queued action and his anchor stay); the next pull restores and re-verifies it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfflineCache } from '../../../src/main/services/cache/offlineCache.ts';
import { Credentials } from '../../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { ReviewedRecords } from '../../../src/main/services/review/reviewedRecords.ts';
import { TeamMirror } from '../../../src/main/services/team/laptop/teamMirror.ts';
import { isTeamPendingRef, teamPendingRef } from '../../../src/main/services/team/teamItemNames.ts';
import { teamInit, type TeamInitReport } from '../../../src/main/services/team/teamInit.ts';
import { teamJoin } from '../../../src/main/services/team/teamJoin.ts';
import { TeamProblem } from '../../../src/main/services/team/teamProblem.ts';
import { TeamSession } from '../../../src/main/services/team/teamSession.ts';
import { verifyTeamHistory } from '../../../src/main/services/team/teamVerify.ts';
import type { PendingTransaction } from '../../../src/shared/bank/index.ts';
import { pendingTransactionOf } from '../services/support/records.ts';
import { createTestDatabase, inviteFileOf, uniqueLogin } from '../../support/team/teamDatabase.ts';

const ACCOUNT = 'acct_shared';
const workspace = 'acme-two-laptops';
const names = { alice: uniqueLogin('alice'), bob: uniqueLogin('bob') };
const bank: PendingTransaction[] = Array.from({ length: 5 }, (_, n) => pendingTransactionOf(ACCOUNT, n, 5));

interface TwoLaptop {
  profileId: string;
  cache: OfflineCache;
  records: ReviewedRecords;
  session: TeamSession;
}

/** A laptop with the bank's transactions cached, that joins the team (`join` is init or an invite). */
async function laptop(
  join_: (laptop: { dataFolder: string; secretStore: InMemorySecretStore; database: DatabaseSync }) => Promise<unknown>,
  profileId: string,
): Promise<TwoLaptop> {
  const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-two-laptops-'));
  const secretStore = new InMemorySecretStore();
  const cache = await OfflineCache.open({ folder, credentials: new Credentials(secretStore), writer: 'inline' });
  cache.transaction(() => cache.pendingTransactions.writePage(profileId, ACCOUNT, bank, 1));
  await join_({ dataFolder: folder, secretStore, database: cache.database });
  const records = new ReviewedRecords(cache.database, () => cache.sealer);
  const session = TeamSession.open({ dataFolder: folder, secretStore, database: cache.database, records });
  if (session === null) throw new Error('join left no team settings');
  return { profileId, cache, records, session };
}

/** This laptop's own refs of the bank's transactions, in the bank's order. */
function localRefs(of: TwoLaptop): string[] {
  const rows = of.cache.pendingTransactions.list({ profileId: of.profileId, accountId: ACCOUNT, limit: 100 }).rows;
  const byRecord = new Map(
    rows.map((row) => {
      const { row_key: ref, ...record } = row;
      return [JSON.stringify(record), ref];
    }),
  );
  return bank.map((transaction) => byRecord.get(JSON.stringify(transaction)) ?? '(missing)');
}

let alice: TwoLaptop;
let bob: TwoLaptop;

beforeAll(async () => {
  const db = await createTestDatabase();
  const outFolder = mkdtempSync(join(tmpdir(), 'ledgerdesk-invites-'));
  let report: TeamInitReport | null = null;
  alice = await laptop(async (own) => {
    report = await teamInit({
      adminUrl: db.adminUrl,
      caPem: db.cluster.caPem,
      workspace,
      officers: [names.alice, names.bob],
      outFolder,
      laptop: { ...own, profileId: 'prof_alices_laptop' },
    });
  }, 'prof_alices_laptop');
  const inviteFile = inviteFileOf(report as unknown as TeamInitReport, names.bob);
  bob = await laptop((own) => teamJoin({ inviteFile, ...own, profileId: 'prof_bobs_laptop' }), 'prof_bobs_laptop');
});

afterAll(async () => {
  for (const each of [alice, bob]) {
    await each.session.close();
    await each.cache.close();
  }
});

describe('two laptops, one team', () => {
  it('name one pending transaction alike, where their own refs differ', async () => {
    const aliceRefs = localRefs(alice);
    const bobRefs = localRefs(bob);
    expect(aliceRefs).not.toContain('(missing)');
    expect(bobRefs).not.toContain('(missing)');
    // Each laptop's own names differ (its own data key and profile id)...
    for (const [index, ref] of aliceRefs.entries()) expect(ref).not.toBe(bobRefs[index]);
    // ...and the team's names agree.
    const [aliceKeys, bobKeys] = [await alice.session.keyring(), await bob.session.keyring()];
    for (const transaction of bank)
      expect(teamPendingRef(aliceKeys, ACCOUNT, transaction)).toBe(teamPendingRef(bobKeys, ACCOUNT, transaction));
  });

  it('one decides by her laptop ref; the other pulls, verifies and sees it under his own copy', async () => {
    const aliceRef = localRefs(alice)[2] ?? '';
    const queued = await alice.session.desk.act({
      kind: 'pending-transaction',
      ref: aliceRef,
      action: 'propose',
      disposition: 'flagged',
      note: 'card used abroad',
    });
    expect(isTeamPendingRef(queued.ref)).toBe(true);
    expect(queued.ref).not.toBe(aliceRef);
    expect((await alice.session.synchronise()).problem).toBeNull();
    // The server holds the team's name, never the laptop's.
    const onServer = await alice.session.connection.with((db) =>
      db.query<{ ref: string }>("SELECT ref FROM team.events WHERE kind = 'pending-transaction'"),
    );
    expect(onServer.rows.map((row) => row.ref)).toEqual([queued.ref]);

    expect((await bob.session.synchronise()).problem).toBeNull();
    const bobsName = teamPendingRef(await bob.session.keyring(), ACCOUNT, bank[2]);
    expect(bob.session.desk.review('pending-transaction', bobsName)).toMatchObject({
      state: 'flagged',
      proposedBy: names.alice,
    });
    // Bob acts on it by *his* laptop's ref: the same item on the server.
    const approve = await bob.session.desk.act({
      kind: 'pending-transaction',
      ref: localRefs(bob)[2] ?? '',
      action: 'note',
      note: 'called the customer',
    });
    expect(approve.ref).toBe(queued.ref);
    expect((await bob.session.synchronise()).problem).toBeNull();
    const history = await bob.session.desk.history('pending-transaction', bobsName);
    expect(history.map((event) => [event.officer, event.action, event.note])).toEqual([
      [names.alice, 'propose', 'card used abroad'],
      [names.bob, 'note', 'called the customer'],
    ]);
    expect(await verifyTeamHistory(bob.session)).toMatchObject({ ok: true, firstBad: null });
  });

  it('an unknown laptop ref is a clear error, and nothing is queued', async () => {
    const before = alice.session.status().queued;
    await expect(
      alice.session.desk.act({ kind: 'pending-transaction', ref: 'not_a_ref_of_mine', action: 'claim' }),
    ).rejects.toThrow(TeamProblem);
    await expect(
      alice.session.desk.act({ kind: 'pending-transaction', ref: 'not_a_ref_of_mine', action: 'claim' }),
    ).rejects.toThrow(/holds no pending transaction not_a_ref_of_mine/);
    expect(alice.session.status().queued).toBe(before);
  });

  it("clearing a profile's cache drops that laptop's mirror only; a pull restores and re-verifies it", async () => {
    const name = teamPendingRef(await bob.session.keyring(), ACCOUNT, bank[2]);
    const head = bob.session.mirror.head(workspace);
    // An action Bob made offline, not yet pushed: clearing must not lose it.
    await bob.session.desk.act({ kind: 'pending-transaction', ref: name, action: 'claim' });
    const serverBefore = await bob.session.connection.with((db) =>
      db.query<{ n: string }>('SELECT count(*)::text AS n FROM team.events WHERE workspace = $1', [workspace]),
    );

    // What clearing a profile's cache does (LedgerServices.clearCachedData).
    bob.cache.dropProfile(bob.profileId);
    expect(new TeamMirror(bob.cache.database).dropMirrorsOfProfile(bob.profileId)).toEqual([workspace]);
    expect(bob.session.mirror.head(workspace).seq).toBe(0);
    expect(bob.session.desk.review('pending-transaction', name)).toBeNull();
    expect(bob.session.status().queued).toBe(1);
    // Alice's laptop maps the workspace to another profile: clearing Bob's touches nothing of hers.
    expect(new TeamMirror(alice.cache.database).dropMirrorsOfProfile(bob.profileId)).toEqual([]);

    const outcome = await bob.session.synchronise();
    expect(outcome.problem).toBeNull();
    expect(outcome.push).toMatchObject({ ok: 1 });
    expect(outcome.pull?.pulled).toBeGreaterThan(head.seq);
    const serverAfter = await bob.session.connection.with((db) =>
      db.query<{ n: string }>('SELECT count(*)::text AS n FROM team.events WHERE workspace = $1', [workspace]),
    );
    // The team's record lost nothing; it gained Bob's claim.
    expect(Number(serverAfter.rows[0]?.n)).toBe(Number(serverBefore.rows[0]?.n) + 1);
    expect(bob.session.desk.review('pending-transaction', name)).toMatchObject({
      state: 'flagged',
      assignee: names.bob,
    });
    expect(await verifyTeamHistory(bob.session)).toMatchObject({ ok: true, firstBad: null });
  });
});
