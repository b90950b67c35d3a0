/**
 * Re-decides a workspace's history event by event, as a laptop pulls it and as `ledger audit
 * verify --team` reads it (issue 35, T1 and T2): who may sign each event (the membership the
 * signed history made, rules/teamMembership.ts), and what the event must have done (the item
 * rules, rules/itemRules.ts, with the policy the history put in force). Any difference between
 * what the server recorded (result, sentence, new state, new version) and what the rules make
 * is tampering, named with the event.
 *
 * A page is decided on a copy: `begin` before it, then `commit` (keep what it decided; the
 * caller stores the reviews it touched) or `rollback` (a page that does not verify changes
 * nothing).
 */
import type { KeyObject } from 'node:crypto';
import type { TeamEventRow } from '../crypto/teamCanonical.ts';
import { fingerprint, publicKeyOfRaw } from '../crypto/officerKeys.ts';
import { TeamProblem } from '../teamProblem.ts';
import { isItemKind } from '../teamTerms.ts';
import {
  decideItem,
  ImpossibleEvent,
  NEW_ITEM,
  projectItem,
  sameOutcome,
  type ItemContext,
  type ItemState,
  type Outcome,
} from './itemRules.ts';
import { MembershipBroken, type TeamMembership } from './teamMembership.ts';

/** Where the reviews as the history left them are read from (the mirror, or memory). */
export interface ReviewSource {
  read(kind: string, ref: string): ItemState | null;
}

export interface TouchedReview {
  kind: string;
  ref: string;
  review: ItemState;
}

/** "bob propose cleared on application app_1", "alice invite dave": an event as people read it. */
function describeEvent(event: TeamEventRow): string {
  if (isItemKind(event.kind))
    return `${event.officer} ${event.action}${event.action === 'propose' && event.disposition !== null ? ` ${event.disposition}` : ''} on ${event.kind} ${event.ref}`;
  if (event.kind === 'member') return `${event.officer} ${event.action} ${event.ref}`;
  return `${event.officer} ${event.action}`;
}

function outcomeText(outcome: Pick<Outcome, 'result' | 'detail' | 'newState' | 'newVersion'>): string {
  return `${outcome.result}${outcome.detail === null ? '' : ` ("${outcome.detail}")`} → ${outcome.newState ?? 'no state'}, version ${outcome.newVersion === null ? 'none' : String(outcome.newVersion)}`;
}

export class HistoryJudge {
  readonly #workspace: string;
  readonly #reviews: ReviewSource;
  readonly #pins: ReadonlyMap<string, Buffer>;
  #base: TeamMembership;
  #page: TeamMembership | null = null;
  readonly #touched = new Map<string, TouchedReview>();
  readonly #keyObjects = new Map<string, KeyObject>();
  #rulesOf: readonly string[] | null = null;
  #ruleSet: ReadonlySet<string> = new Set();

  constructor(options: { membership: TeamMembership; reviews: ReviewSource; pins?: ReadonlyMap<string, Buffer> }) {
    this.#base = options.membership;
    this.#workspace = options.membership.workspace;
    this.#reviews = options.reviews;
    this.#pins = options.pins ?? new Map();
  }

  /** The membership and policy as the events decided so far made them. */
  get membership(): TeamMembership {
    return this.#page ?? this.#base;
  }

  begin(): void {
    this.#page = this.#base.snapshot();
    this.#touched.clear();
  }

  /** Keeps what the page decided; answers the reviews it moved (for the caller to store). */
  commit(): TouchedReview[] {
    if (this.#page !== null) this.#base = this.#page;
    this.#page = null;
    const touched = [...this.#touched.values()];
    this.#touched.clear();
    return touched;
  }

  rollback(): void {
    this.#page = null;
    this.#touched.clear();
  }

  /**
   * The key `event`'s signature must verify with (the events before it admitted): its signer as
   * the signed history introduced them. Throws a 'tampered' TeamProblem naming the event when no
   * member may sign it.
   */
  signer(event: TeamEventRow): KeyObject {
    const membership = this.#page ?? this.#base;
    let key: Buffer;
    try {
      key = membership.signingKey(event);
    } catch (error) {
      if (error instanceof MembershipBroken) throw this.#forged(event, error.message);
      throw error;
    }
    const pinned = this.#pins.get(event.officer);
    if (membership.signed && pinned !== undefined && !pinned.equals(key))
      throw this.#forged(
        event,
        `the history gives ${event.officer} the signing key ${fingerprint(key)}, not the one this laptop pinned (${fingerprint(pinned)})`,
      );
    return this.#keyObject(key);
  }

  /**
   * Decides `event` as the team's rules do and compares with what the server recorded; keeps
   * what it did (membership, policy, the item's review). Throws a 'tampered' TeamProblem naming
   * the event on any difference.
   */
  judge(event: TeamEventRow): void {
    const membership = this.#page ?? this.#base;
    let expected: Outcome;
    if (isItemKind(event.kind)) {
      const slot = `${event.kind}\n${event.ref}`;
      const review = this.#touched.get(slot)?.review ?? this.#reviews.read(event.kind, event.ref) ?? NEW_ITEM;
      try {
        expected = decideItem(review, event, this.#context(membership));
      } catch (error) {
        if (error instanceof ImpossibleEvent) throw this.#impossible(event, error.message);
        throw error;
      }
      if (!sameOutcome(expected, event)) throw this.#mismatch(event, expected);
      this.#touched.set(slot, { kind: event.kind, ref: event.ref, review: projectItem(review, event) });
    } else if (event.kind === 'member' || event.kind === 'workspace') {
      try {
        expected = membership.decide(event);
      } catch (error) {
        if (error instanceof MembershipBroken)
          throw new TeamProblem(
            'tampered',
            `Event ${String(event.seq)} of ${this.#workspace} (${describeEvent(event)}) breaks the team's membership or policy rules: ${error.message}. It was written outside Ledgerdesk.`,
            event.seq,
          );
        throw error;
      }
      if (!sameOutcome(expected, event)) throw this.#mismatch(event, expected);
    } else throw this.#impossible(event, `there is no kind ${event.kind}`);
  }

  /** signer then judge: for a history already signature-checked (the mirror's own). */
  admit(event: TeamEventRow): void {
    this.signer(event);
    this.judge(event);
  }

  #context(membership: TeamMembership): ItemContext {
    if (this.#rulesOf !== membership.rules) {
      this.#rulesOf = membership.rules;
      this.#ruleSet = new Set(membership.rules);
    }
    return {
      workspace: this.#workspace,
      rules: this.#ruleSet,
      signedMembership: membership.signed,
      isLead: (login) => membership.isLead(login),
      isActiveMember: (login) => membership.isActiveMember(login),
      personOf: (login) => membership.personOf(login),
    };
  }

  #keyObject(raw: Buffer): KeyObject {
    const hex = raw.toString('hex');
    let key = this.#keyObjects.get(hex);
    if (key === undefined) {
      key = publicKeyOfRaw(raw, 'Ed25519');
      this.#keyObjects.set(hex, key);
    }
    return key;
  }

  #forged(event: TeamEventRow, why: string): TeamProblem {
    return new TeamProblem(
      'tampered',
      `The team history is forged at event ${String(event.seq)} of ${this.#workspace} (${describeEvent(event)}): ${why}.`,
      event.seq,
    );
  }

  #impossible(event: TeamEventRow, why: string): TeamProblem {
    return new TeamProblem(
      'tampered',
      `Event ${String(event.seq)} of ${this.#workspace} (${describeEvent(event)}) is one the team server never records (${why}): it was written outside Ledgerdesk.`,
      event.seq,
    );
  }

  #mismatch(event: TeamEventRow, expected: Outcome): TeamProblem {
    return new TeamProblem(
      'tampered',
      `The team server's record of event ${String(event.seq)} of ${this.#workspace} (${describeEvent(event)}) is not what its signed history makes: the server recorded ${outcomeText(event)}, the team's rules make ${outcomeText(expected)}. The server's rules or data were changed outside the signed history.`,
      event.seq,
    );
  }
}

/** Reviews held in memory (verify --team, which re-decides the server's history from its start). */
export class MemoryReviews implements ReviewSource {
  readonly #reviews = new Map<string, TouchedReview>();

  read(kind: string, ref: string): ItemState | null {
    return this.#reviews.get(`${kind}\n${ref}`)?.review ?? null;
  }

  store(touched: readonly TouchedReview[]): void {
    for (const entry of touched) this.#reviews.set(`${entry.kind}\n${entry.ref}`, entry);
  }

  all(): IterableIterator<TouchedReview> {
    return this.#reviews.values();
  }
}
