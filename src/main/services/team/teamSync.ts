/**
 * Moving actions and history between this laptop and the team server.
 *
 * Push: the outbox's queued actions, in order, at most 1,000 per `team.push` call: one round
 * trip and one server transaction per batch, so a batch that fails midway commits nothing and
 * is sent again as it was (the server answers known event ids with their first result). Each
 * answer lands on its outbox row at once: ok, or a conflict or refusal with the server's sentence,
 * which stays in the officer's conflicts queue; nothing is retried blindly.
 *
 * Pull: the workspace's events after the mirror's head, by seq (commit order), a page at a
 * time (the next page asked for while this one is verified). Each page is verified whole (chain,
 * hashes, the anchor, the history's first event as the invite named it, and every event
 * re-decided by the team's rules: its signer a member the signed history introduced, its result,
 * state and version what the rules make; then the signatures on the thread pool) before it is
 * applied in one SQLite transaction; the anchor in the keychain then moves forward. Before
 * anything, the event at the mirror's head and the one at the anchor are read again from the
 * server: a history rewritten or cut after this laptop verified it is named, never silently
 * accepted.
 */
import { ChainVerifier } from './chainVerifier.ts';
import type { TeamEventRow } from './crypto/teamCanonical.ts';
import { fingerprint } from './crypto/officerKeys.ts';
import { RULES_JUDGED, type TeamMirror } from './laptop/teamMirror.ts';
import { HistoryJudge, MemoryReviews } from './rules/historyJudge.ts';
import { TeamMembership, type LegacyDirectory, type Role } from './rules/teamMembership.ts';
import type { TeamConnection } from './teamConnection.ts';
import type { TeamKeychain } from './teamKeychain.ts';
import { TeamProblem } from './teamProblem.ts';
import { eventAt, eventsAfter, lastSeq, myWrappedKeys, officersOf } from './teamServerReads.ts';

const PUSH_BATCH = 1_000;
/** Large pages: fewer round trips, and each page's signatures spread over every core. */
const PULL_PAGE = 5_000;

interface PushAnswer {
  id: string;
  seq: number;
  result: 'ok' | 'conflict' | 'refused';
  detail: string | null;
  version: number | null;
  replayed: boolean;
}

export interface PushReport {
  sent: number;
  ok: number;
  conflicts: number;
  refused: number;
  batches: number;
  /** Where the time went, in ms: reading the outbox, waiting for the server, recording answers. */
  phases: { outbox: number; server: number; answers: number };
}

export interface PullReport {
  pulled: number;
  pages: number;
  head: { seq: number; hash: string };
  /**
   * Where the time went, in ms: waiting for a page (what the verification did not hide),
   * verifying (chain here, signatures on the pool), applying to the mirror, moving the anchor.
   */
  phases: { waiting: number; verifying: number; applying: number; anchoring: number };
}

export class TeamSync {
  readonly #workspace: string;
  readonly #mirror: TeamMirror;
  readonly #connection: TeamConnection;
  readonly #keychain: TeamKeychain;
  readonly #now: () => Date;
  readonly #batch: number;
  readonly #page: number;

  constructor(options: {
    workspace: string;
    mirror: TeamMirror;
    connection: TeamConnection;
    keychain: TeamKeychain;
    now?: () => Date;
    pushBatch?: number;
    pullPage?: number;
  }) {
    this.#workspace = options.workspace;
    this.#mirror = options.mirror;
    this.#connection = options.connection;
    this.#keychain = options.keychain;
    this.#now = options.now ?? (() => new Date());
    this.#batch = options.pushBatch ?? PUSH_BATCH;
    this.#page = options.pullPage ?? PULL_PAGE;
  }

  async push(): Promise<PushReport> {
    const phases = { outbox: 0, server: 0, answers: 0 };
    const report: PushReport = { sent: 0, ok: 0, conflicts: 0, refused: 0, batches: 0, phases };
    for (;;) {
      let started = performance.now();
      const rows = this.#mirror.queued(this.#workspace, this.#batch);
      if (rows.length === 0) return report;
      const batch = `[${rows.map((row) => row.payload).join(',')}]`;
      phases.outbox += performance.now() - started;
      started = performance.now();
      const answers = await this.#connection.with(async (client) => {
        const result = await client.query<{ answer: PushAnswer }>('SELECT team.push($1::jsonb) AS answer', [batch]);
        return result.rows.map((row) => row.answer);
      });
      phases.server += performance.now() - started;
      started = performance.now();
      const at = this.#now().toISOString();
      this.#mirror.transaction(() => {
        for (const answer of answers) this.#mirror.answer(answer.id, answer.result, answer.seq, answer.detail, at);
      });
      phases.answers += performance.now() - started;
      report.batches += 1;
      report.sent += answers.length;
      for (const answer of answers) {
        if (answer.result === 'ok') report.ok += 1;
        else if (answer.result === 'conflict') report.conflicts += 1;
        else report.refused += 1;
      }
    }
  }

  async pull(): Promise<PullReport> {
    return this.#connection.with(async (db) => {
      const legacy = await this.legacyDirectory(db);
      await this.#refreshWrappedKeys(db);
      if (this.#mirror.rulesVersion(this.#workspace) < RULES_JUDGED) this.#judgeMirror(legacy);
      const start = this.#mirror.head(this.#workspace);
      const anchor = await this.#keychain.anchor();
      if (start.seq > 0) {
        const atHead = await eventAt(db, this.#workspace, start.seq);
        if (atHead === null)
          throw new TeamProblem(
            'tampered',
            `The team history lost its tail: event ${String(start.seq)} of ${this.#workspace}, the last one this laptop verified, is gone from the server.`,
            start.seq,
          );
        if (!Buffer.from(atHead.hash).equals(start.hash))
          throw new TeamProblem(
            'tampered',
            `The team history was rewritten: event ${String(start.seq)} of ${this.#workspace} is not the one this laptop verified.`,
            start.seq,
          );
      }
      if (anchor !== null && anchor.seq > 0) {
        const atAnchor = await eventAt(db, this.#workspace, anchor.seq);
        if (atAnchor === null)
          throw new TeamProblem(
            'tampered',
            `The team history lost its tail: the event at this laptop's anchor (seq ${String(anchor.seq)}) is gone from the server.`,
            anchor.seq,
          );
        if (Buffer.from(atAnchor.hash).toString('hex') !== anchor.hash)
          throw new TeamProblem(
            'tampered',
            `The team history was rewritten: the event at this laptop's anchor (seq ${String(anchor.seq)}) changed on the server.`,
            anchor.seq,
          );
      }
      const judge = this.#judgeOfMirror(legacy);
      const verifier = new ChainVerifier(start, judge);
      const root = this.#mirror.rootHash(this.#workspace);
      const check = (event: TeamEventRow, hash: Buffer): void => {
        if (event.seq === 1 && root !== null && !hash.equals(root))
          throw new TeamProblem(
            'tampered',
            `The team history of ${this.#workspace} does not start with the event your invite named: the server shows another history.`,
            1,
          );
        if (anchor !== null && event.seq === anchor.seq && hash.toString('hex') !== anchor.hash)
          throw new TeamProblem(
            'tampered',
            `The team history was rewritten: the event at this laptop's anchor (seq ${String(anchor.seq)}) changed on the server.`,
            anchor.seq,
          );
      };
      let pulled = 0;
      let pages = 0;
      const phases = { waiting: 0, verifying: 0, applying: 0, anchoring: 0 };
      let started = performance.now();
      // The next page is asked for before this one is verified, so the round trip and the
      // server's read overlap the laptop's verification (which itself runs on every core).
      let next = eventsAfter(db, this.#workspace, verifier.seq, this.#page);
      for (;;) {
        const page = await next;
        phases.waiting += performance.now() - started;
        const last = page.at(-1);
        if (last === undefined) break;
        const full = page.length === this.#page;
        if (full) next = eventsAfter(db, this.#workspace, last.seq, this.#page);
        started = performance.now();
        judge.begin();
        try {
          await verifier.acceptPage(page, check);
        } catch (error) {
          judge.rollback();
          if (full) await next.catch(() => undefined);
          throw error;
        }
        const touched = judge.commit();
        phases.verifying += performance.now() - started;
        started = performance.now();
        this.#mirror.transaction(() => {
          this.#mirror.appendVerified(page, touched, this.#now().toISOString());
          this.#pinSigned(judge.membership);
        });
        phases.applying += performance.now() - started;
        started = performance.now();
        await this.#keychain.advanceAnchor({ seq: verifier.seq, hash: verifier.hash.toString('hex') });
        phases.anchoring += performance.now() - started;
        started = performance.now();
        pulled += page.length;
        pages += 1;
        if (!full) break;
      }
      return { pulled, pages, head: { seq: verifier.seq, hash: verifier.hash.toString('hex') }, phases };
    });
  }

  /** The membership and policy as the mirror's verified events make them, and a judge for what follows. */
  #judgeOfMirror(legacy: LegacyDirectory): HistoryJudge {
    const membership = new TeamMembership(this.#workspace, legacy);
    for (const event of this.#mirror.membershipEvents(this.#workspace)) membership.decide(event);
    return new HistoryJudge({
      membership,
      reviews: this.#mirror.reviewSource(this.#workspace),
      pins: pinsOf(this.#mirror, this.#workspace),
    });
  }

  /**
   * Once per build of the rules: re-decides the events this laptop verified before (a build
   * before issue 35 checked their chain and signatures, not their decisions). The first one the
   * rules refuse, and every one after it, are forgotten, so the pull that follows fetches it
   * again and names it; the reviews are rebuilt from those kept.
   */
  #judgeMirror(legacy: LegacyDirectory): void {
    const reviews = new MemoryReviews();
    const replay = new HistoryJudge({
      membership: new TeamMembership(this.#workspace, legacy),
      reviews,
      pins: pinsOf(this.#mirror, this.#workspace),
    });
    for (let after = 0; ;) {
      const events = this.#mirror.events(this.#workspace, after, 5_000);
      const last = events.at(-1);
      if (last === undefined) break;
      replay.begin();
      for (const event of events) {
        try {
          replay.admit(event);
        } catch (error) {
          if (!(error instanceof TeamProblem) || error.kind !== 'tampered') throw error;
          this.#mirror.forgetFrom(this.#workspace, event.seq);
          this.#mirror.transaction(() => {
            this.#mirror.setRulesVersion(this.#workspace, RULES_JUDGED);
          });
          return;
        }
      }
      reviews.store(replay.commit());
      after = last.seq;
    }
    this.#mirror.transaction(() => {
      this.#mirror.setRulesVersion(this.#workspace, RULES_JUDGED);
    });
  }

  /** Keys the signed history gave members, pinned on first sight like the server's (see legacyDirectory). */
  #pinSigned(membership: TeamMembership): void {
    if (!membership.signed) return;
    const pinned = this.#mirror.pinnedOfficers(this.#workspace);
    const at = this.#now().toISOString();
    for (const member of membership.members())
      if (member.sign !== null && member.box !== null && !pinned.has(member.login))
        this.#mirror.pinOfficer(
          this.#workspace,
          {
            roleName: member.login,
            displayName: member.login,
            signPublic: member.sign,
            boxPublic: member.box,
            role: member.role,
          },
          at,
        );
  }

  /**
   * What the server says of its officers, for the part of a history from before its membership
   * was signed: their signing keys, pinned on first sight (a key the server later replaces, to
   * make a forged event verify, is refused with both fingerprints named), and who leads.
   */
  async legacyDirectory(db: Parameters<typeof officersOf>[0]): Promise<LegacyDirectory> {
    const pinned = this.#mirror.pinnedOfficers(this.#workspace);
    const keys = new Map<string, Buffer>();
    const roles = new Map<string, Role>();
    const at = this.#now().toISOString();
    for (const officer of await officersOf(db, this.#workspace)) {
      roles.set(officer.roleName, pinned.get(officer.roleName)?.role ?? officer.role);
      if (officer.signPublic === null || officer.boxPublic === null) continue;
      const known = pinned.get(officer.roleName);
      if (known !== undefined && !known.signPublic.equals(officer.signPublic))
        throw new TeamProblem(
          'tampered',
          `The server now gives ${officer.roleName} another signing key (${fingerprint(officer.signPublic)}) than the one this laptop pinned (${fingerprint(known.signPublic)}).`,
        );
      if (known === undefined || known.role === null)
        this.#mirror.pinOfficer(
          this.#workspace,
          {
            roleName: officer.roleName,
            displayName: officer.displayName,
            signPublic: officer.signPublic,
            boxPublic: officer.boxPublic,
            role: officer.role,
          },
          at,
        );
      keys.set(officer.roleName, known?.signPublic ?? officer.signPublic);
    }
    for (const [login, officer] of pinned) {
      if (!keys.has(login)) keys.set(login, officer.signPublic);
      if (!roles.has(login) && officer.role !== null) roles.set(login, officer.role);
    }
    return { keys, roles };
  }

  async #refreshWrappedKeys(db: Parameters<typeof myWrappedKeys>[0]): Promise<void> {
    const wrapped = await myWrappedKeys(db, this.#workspace);
    if (wrapped.length === 0) return;
    this.#mirror.transaction(() => {
      for (const key of wrapped) this.#mirror.saveWrappedKey(this.#workspace, key.version, key.wrapped);
    });
  }

  /** The server's last seq (for status). */
  serverHead(): Promise<number> {
    return this.#connection.with((db) => lastSeq(db, this.#workspace));
  }
}

function pinsOf(mirror: TeamMirror, workspace: string): Map<string, Buffer> {
  return new Map([...mirror.pinnedOfficers(workspace)].map(([login, officer]) => [login, officer.signPublic]));
}
