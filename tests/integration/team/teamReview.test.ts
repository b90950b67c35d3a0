/**
 * Two and three officers on a real PostgreSQL (the run's throwaway cluster, TLS verify-full),
 * each with their own data folder, cache file and keychain: set-up by invite, an offline
 * conflict, four-eyes refused and accepted, assignment races, notes the server cannot read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamProblem } from '../../../src/main/services/team/teamProblem.ts';
import {
  createTestDatabase,
  initTeam,
  type Laptop,
  laptopOf,
  type TestDatabase,
  uniqueLogin,
} from '../../support/team/teamDatabase.ts';

let db: TestDatabase;
let alice: Laptop;
let bob: Laptop;
let carol: Laptop;
const names = { alice: uniqueLogin('alice'), bob: uniqueLogin('bob'), carol: uniqueLogin('carol') };
const workspace = 'acme-compliance';

beforeAll(async () => {
  db = await createTestDatabase();
  const report = await initTeam(db, workspace, [names.alice, names.bob, names.carol]);
  alice = await laptopOf(report, names.alice);
  bob = await laptopOf(report, names.bob);
  carol = await laptopOf(report, names.carol);
});

afterAll(async () => {
  for (const laptop of [alice, bob, carol]) {
    await laptop.session.close();
    laptop.database.close();
  }
});

async function sync(...laptops: Laptop[]): Promise<void> {
  for (const laptop of laptops) await laptop.session.synchronise();
}

describe('team review with three officers', () => {
  it('an offline conflict comes back to the loser with who and what won', async () => {
    await sync(alice, bob);
    // Both offline: each queues a proposal on version 0 of the same application.
    const ours = await alice.session.desk.act({
      kind: 'application',
      ref: 'app_1',
      action: 'propose',
      disposition: 'flagged',
      note: 'address mismatch',
    });
    const theirs = await bob.session.desk.act({
      kind: 'application',
      ref: 'app_1',
      action: 'propose',
      disposition: 'cleared',
    });
    expect(ours.baseVersion).toBe(0);
    expect(theirs.baseVersion).toBe(0);
    await sync(alice);
    const bobSync = await bob.session.synchronise();
    expect(bobSync.push).toMatchObject({ sent: 1, ok: 0, conflicts: 1 });
    const conflicts = bob.session.desk.queues().conflicts;
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]?.detail).toBe(`${names.alice} proposed flagged on version 1 (you saw version 0): review again`);
    // The server kept Alice's proposal; Bob's laptop shows it too, with her note opened.
    expect(bob.session.desk.review('application', 'app_1')).toMatchObject({
      state: 'flagged',
      proposedBy: names.alice,
      version: 1,
    });
    const history = await bob.session.desk.history('application', 'app_1');
    expect(history.map((event) => [event.officer, event.action, event.result])).toEqual([
      [names.alice, 'propose', 'ok'],
      [names.bob, 'propose', 'conflict'],
    ]);
    expect(history[0]?.note).toBe('address mismatch');
    // Dismissed, it leaves the queue.
    expect(bob.session.desk.acknowledge(conflicts[0]?.eventId ?? '')).toBe(true);
    expect(bob.session.desk.queues().conflicts).toHaveLength(0);
  });

  it('four-eyes: the proposer cannot approve, another officer can, and the server holds it even against its admin', async () => {
    await sync(alice, bob, carol);
    // app_1 is flagged (by alice); clearing a flagged item needs a second officer.
    await carol.session.desk.act({
      kind: 'application',
      ref: 'app_1',
      action: 'propose',
      disposition: 'cleared',
      note: 'documents arrived',
    });
    await sync(carol, alice, bob);
    expect(alice.session.desk.review('application', 'app_1')).toMatchObject({
      state: 'proposed',
      proposedDisposition: 'cleared',
      proposedBy: names.carol,
      version: 2,
    });
    expect(alice.session.desk.queues().awaitingMyApproval.map((review) => review.ref)).toEqual(['app_1']);
    expect(carol.session.desk.queues().awaitingMyApproval).toEqual([]);

    await carol.session.desk.act({ kind: 'application', ref: 'app_1', action: 'approve' });
    const self = await carol.session.synchronise();
    expect(self.push).toMatchObject({ refused: 1 });
    expect(carol.session.desk.queues().conflicts[0]?.detail).toBe(
      'four-eyes: the officer who proposed a disposition cannot approve it',
    );

    await bob.session.desk.act({ kind: 'application', ref: 'app_1', action: 'approve' });
    const other = await bob.session.synchronise();
    expect(other.push).toMatchObject({ ok: 1 });
    expect(bob.session.desk.review('application', 'app_1')).toMatchObject({
      state: 'cleared',
      proposedBy: names.carol,
      approvedBy: names.bob,
      version: 3,
    });

    const admin = await db.admin();
    try {
      await expect(
        admin.query(`UPDATE team.reviews SET approved_by = proposed_by WHERE ref = 'app_1'`),
      ).rejects.toThrow(/four_eyes/);
    } finally {
      await admin.end();
    }
  });

  it('a proposal that needs no second officer takes effect; a rejection needs a note and restores the state', async () => {
    await bob.session.desk.act({ kind: 'webhook-send', ref: 'send_9', action: 'propose', disposition: 'escalated' });
    await sync(bob, alice);
    expect(alice.session.desk.review('webhook-send', 'send_9')).toMatchObject({ state: 'escalated', version: 1 });
    await alice.session.desk.act({
      kind: 'webhook-send',
      ref: 'send_9',
      action: 'propose',
      disposition: 'closed',
      note: 'resolved with the fintech',
    });
    await sync(alice, bob);
    expect(bob.session.desk.review('webhook-send', 'send_9')).toMatchObject({
      state: 'proposed',
      proposedDisposition: 'closed',
    });
    await expect(bob.session.desk.act({ kind: 'webhook-send', ref: 'send_9', action: 'reject' })).rejects.toThrow(
      /reject needs a note/,
    );
    await bob.session.desk.act({
      kind: 'webhook-send',
      ref: 'send_9',
      action: 'reject',
      note: 'the fintech has not answered yet',
    });
    await sync(bob, alice);
    expect(alice.session.desk.review('webhook-send', 'send_9')).toMatchObject({
      state: 'escalated',
      proposedDisposition: null,
      version: 3,
    });
  });

  it('assignment: the first claim wins, the other gets an error naming the winner', async () => {
    await sync(alice, bob, carol);
    await bob.session.desk.act({ kind: 'pending-transaction', ref: 'ptx_a', action: 'claim' });
    await carol.session.desk.act({ kind: 'pending-transaction', ref: 'ptx_a', action: 'claim' });
    await Promise.all([bob.session.sync.push(), carol.session.sync.push()]);
    await sync(bob, carol);
    const review = bob.session.desk.review('pending-transaction', 'ptx_a');
    const winner = review?.assignee;
    expect([names.bob, names.carol]).toContain(winner);
    const loser = winner === names.bob ? carol : bob;
    expect(loser.session.desk.queues().conflicts.map((row) => row.detail)).toContain(
      `already claimed by ${winner ?? ''}`,
    );
    const winning = winner === names.bob ? bob : carol;
    expect(winning.session.desk.queues().assignedToMe.map((row) => row.ref)).toContain('ptx_a');
    // Only the assignee proposes on it.
    await loser.session.desk.act({
      kind: 'pending-transaction',
      ref: 'ptx_a',
      action: 'propose',
      disposition: 'cleared',
    });
    await sync(loser);
    expect(loser.session.desk.queues().conflicts.map((row) => row.detail)).toContain(
      `assigned to ${winner ?? ''}: only ${winner ?? ''} proposes on it`,
    );
    // The loser cannot release it; the lead (alice) can assign it to the loser.
    await loser.session.desk.act({ kind: 'pending-transaction', ref: 'ptx_a', action: 'release' });
    const loserName = winner === names.bob ? names.carol : names.bob;
    await alice.session.desk.act({ kind: 'pending-transaction', ref: 'ptx_a', action: 'assign', assignee: loserName });
    await sync(loser, alice, loser);
    expect(loser.session.desk.review('pending-transaction', 'ptx_a')?.assignee).toBe(loserName);
    // An officer who is not a lead cannot assign to others.
    await loser.session.desk.act({
      kind: 'pending-transaction',
      ref: 'ptx_b',
      action: 'assign',
      assignee: names.alice,
    });
    await sync(loser);
    expect(loser.session.desk.queues().conflicts.map((row) => row.detail)).toContain(
      'only a lead assigns items to others (claim it instead)',
    );
  });

  it('the database holds notes as ciphertext only, and identity comes from the login', async () => {
    const admin = await db.admin();
    try {
      const rows = await admin.query<{ officer: string; sealed: Buffer | null }>(
        `SELECT officer::text, sealed FROM team.events WHERE workspace = $1 AND sealed IS NOT NULL`,
        [workspace],
      );
      expect(rows.rows.length).toBeGreaterThan(0);
      for (const row of rows.rows) {
        const text = row.sealed?.toString('latin1') ?? '';
        expect(text).not.toContain('address mismatch');
        expect(text).not.toContain('documents arrived');
        expect(text).not.toContain('note');
      }
    } finally {
      await admin.end();
    }
  });

  it('a push replayed after a lost answer is idempotent, and a malformed batch commits nothing', async () => {
    const queued = await alice.session.desk.act({ kind: 'application', ref: 'app_2', action: 'claim' });
    const payload = alice.database
      .prepare('SELECT payload FROM team_outbox WHERE event_id = ?')
      .get(queued.eventId) as { payload: string };
    const client = await alice.session.connection.client();
    const first = await client.query<{ a: { seq: number; replayed: boolean } }>('SELECT team.push($1::jsonb) AS a', [
      `[${payload.payload}]`,
    ]);
    const again = await client.query<{ a: { seq: number; replayed: boolean } }>('SELECT team.push($1::jsonb) AS a', [
      `[${payload.payload}]`,
    ]);
    expect(first.rows[0]?.a.replayed).toBe(false);
    expect(again.rows[0]?.a).toMatchObject({ seq: first.rows[0]?.a.seq, replayed: true });
    // The outbox still holds it as queued (its answer was "lost"): the next push is answered the same.
    const push = await alice.session.sync.push();
    expect(push).toMatchObject({ sent: 1, ok: 1 });
    const count = await client.query<{ n: string }>('SELECT count(*)::text AS n FROM team.events WHERE event_id = $1', [
      queued.eventId,
    ]);
    expect(count.rows[0]?.n).toBe('1');

    // A batch whose second event is malformed: the first is not kept either.
    const good = await alice.session.desk.act({ kind: 'application', ref: 'app_3', action: 'claim' });
    const goodPayload = (
      alice.database.prepare('SELECT payload FROM team_outbox WHERE event_id = ?').get(good.eventId) as {
        payload: string;
      }
    ).payload;
    const before = await client.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM team.events WHERE workspace = $1',
      [workspace],
    );
    await expect(
      client.query('SELECT team.push($1::jsonb)', [
        `[${goodPayload}, {"id": "not-a-uuid", "workspace": "${workspace}"}]`,
      ]),
    ).rejects.toThrow(/uuid/);
    const after = await client.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM team.events WHERE workspace = $1',
      [workspace],
    );
    expect(after.rows[0]?.n).toBe(before.rows[0]?.n);
    expect(await alice.session.sync.push()).toMatchObject({ sent: 1, ok: 1 });
  });

  it('one batch with several moves on one item is decided in order, and an id sent twice in it is kept once', async () => {
    await sync(alice, bob);
    // Offline, alice claims, flags, then asks to clear the same item: one batch of three.
    await alice.session.desk.act({ kind: 'application', ref: 'app_batch', action: 'claim' });
    await alice.session.desk.act({ kind: 'application', ref: 'app_batch', action: 'propose', disposition: 'flagged' });
    const clear = await alice.session.desk.act({
      kind: 'application',
      ref: 'app_batch',
      action: 'propose',
      disposition: 'cleared',
    });
    expect(clear.baseVersion).toBe(1);
    // And a stale proposal by bob on the same item, queued before he saw any of it.
    await bob.session.desk.act({ kind: 'application', ref: 'app_batch', action: 'propose', disposition: 'escalated' });
    expect(await alice.session.sync.push()).toMatchObject({ sent: 3, ok: 3, batches: 1 });
    expect(await bob.session.sync.push()).toMatchObject({ sent: 1, conflicts: 1 });
    const client = await alice.session.connection.client();
    const review = await client.query<{ state: string; version: number; assignee: string; proposed_by: string }>(
      "SELECT state, version, assignee, proposed_by FROM team.reviews WHERE workspace = $1 AND ref = 'app_batch'",
      [workspace],
    );
    // flagged>cleared needs a second officer: the third move left it proposed, at version 2.
    expect(review.rows[0]).toMatchObject({
      state: 'proposed',
      version: 2,
      assignee: names.alice,
      proposed_by: names.alice,
    });
    const lost = bob.session.desk.queues().conflicts.find((row) => row.ref === 'app_batch');
    expect(lost?.detail).toBe(`${names.alice} proposed cleared on version 2 (you saw version 0): review again`);

    // The same event twice in one batch: answered twice with one seq, kept once.
    const note = await alice.session.desk.act({ kind: 'application', ref: 'app_batch', action: 'note', note: 'seen' });
    const payload = (
      alice.database.prepare('SELECT payload FROM team_outbox WHERE event_id = ?').get(note.eventId) as {
        payload: string;
      }
    ).payload;
    const answers = await client.query<{ a: { seq: number; replayed: boolean; result: string } }>(
      'SELECT team.push($1::jsonb) AS a',
      [`[${payload}, ${payload}]`],
    );
    expect(answers.rows.map((row) => row.a.replayed)).toEqual([false, true]);
    expect(answers.rows[1]?.a).toMatchObject({ seq: answers.rows[0]?.a.seq, result: 'ok' });
    const kept = await client.query<{ n: string }>('SELECT count(*)::text AS n FROM team.events WHERE event_id = $1', [
      note.eventId,
    ]);
    expect(kept.rows[0]?.n).toBe('1');

    // Every laptop verifies the chain the batch made, and bob approves what alice proposed.
    await sync(alice, bob, carol);
    expect(bob.session.desk.review('application', 'app_batch')).toMatchObject({ state: 'proposed', version: 2 });
    await bob.session.desk.act({ kind: 'application', ref: 'app_batch', action: 'approve' });
    expect(await bob.session.sync.push()).toMatchObject({ ok: 1 });
    await sync(carol);
    expect(carol.session.desk.review('application', 'app_batch')).toMatchObject({ state: 'cleared', version: 3 });
  });

  it('rejects bad input with a clear error and queues nothing', async () => {
    const before = alice.session.status().queued;
    await expect(alice.session.desk.act({ kind: 'loan', ref: 'x', action: 'claim' })).rejects.toThrow(TeamProblem);
    await expect(alice.session.desk.act({ kind: 'application', ref: '', action: 'claim' })).rejects.toThrow(/ref/);
    await expect(alice.session.desk.act({ kind: 'application', ref: 'a', action: 'propose' })).rejects.toThrow(
      /disposition/,
    );
    await expect(
      alice.session.desk.act({ kind: 'application', ref: 'a', action: 'propose', disposition: 'maybe' }),
    ).rejects.toThrow(/disposition/);
    await expect(alice.session.desk.act({ kind: 'application', ref: 'a', action: 'claim', extra: 1 })).rejects.toThrow(
      /extra|Unrecognized/i,
    );
    await expect(alice.session.desk.act('propose everything')).rejects.toThrow(TeamProblem);
    expect(alice.session.status().queued).toBe(before);
  });
});
