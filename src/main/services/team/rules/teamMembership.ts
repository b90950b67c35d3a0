/**
 * Who is in a workspace, with which key, counted as which person, and which four-eyes rules are
 * in force, as the verified history makes them (issue 35, T2 and T4): the membership and policy
 * events decided as the server's functions decide them (team migration 4), so a member the
 * server lists but no lead introduced, a key nobody signed, or a policy no second lead approved
 * is named instead of trusted.
 *
 * Two eras of a history:
 * - **signed** (from the workspace's genesis, written by `team init`, or from the roster a lead
 *   signs when upgrading a workspace made before issue 35): every member is introduced by a
 *   lead's signed invite (or the genesis or the roster), joins with a key the invite's one-time
 *   key vouches for, and counts as their inviting lead's person until another person confirms
 *   them; a weaker policy waits for a second lead.
 * - **legacy** (before the roster): who may sign is whoever has a join event in the history,
 *   with the key the server listed when this laptop first saw it (pinned); who leads comes from
 *   the server; a policy event is in force at once, as af86022 did.
 */
import type { TeamEventRow } from '../crypto/teamCanonical.ts';
import { DEFAULT_APPROVAL_RULES } from '../teamTerms.ts';
import type { Outcome } from './itemRules.ts';
import { joinProofHolds, keyOfText, keyText, parseTerms } from './memberTerms.ts';

export type Role = 'lead' | 'officer';

export interface Member {
  login: string;
  /** null: a legacy member whose role the server no longer says. */
  role: Role | null;
  active: boolean;
  joined: boolean;
  sign: Buffer | null;
  box: Buffer | null;
  /** The lead who signed the invite (null: the genesis lead, or a member from before the roster). */
  invitedBy: string | null;
  /** Who this login counts as for four-eyes: itself, or its inviting lead's person until confirmed. */
  person: string;
  /** Named at the genesis or in the roster: the team's root, counted as a person of its own. */
  founding: boolean;
  /** The invite not yet used: its one-time public key, when it expires, the event that made it. */
  invite: { key: string; expires: string; eventId: string } | null;
  /** Where the history introduced the login and where it joined. */
  introducedSeq: number;
  joinedSeq: number | null;
  /** Where it was removed, if it was. */
  removedSeq: number | null;
}

export interface PendingPolicy {
  rules: string[];
  by: string;
  /** The chain hash (hex) of the policy event a second lead must name. */
  hash: string;
  seq: number;
}

/** What the server said of members before their membership was signed (pinned on first sight). */
export interface LegacyDirectory {
  keys: ReadonlyMap<string, Buffer>;
  roles: ReadonlyMap<string, Role>;
}

/** An event that breaks the membership or policy rules: the reason, for the tampering sentence. */
export class MembershipBroken extends Error {}

const POLICY_RULE = /^(unreviewed|cleared|flagged|escalated|closed)>(cleared|flagged|escalated|closed)$/;

function rulesOf(text: string | null): string[] | null {
  if (text === null) return null;
  const rules = text === '' ? [] : text.split(',');
  const sorted = [...rules].sort();
  if (new Set(rules).size !== rules.length || sorted.join(',') !== text) return null;
  for (const rule of rules) {
    const match = POLICY_RULE.exec(rule);
    if (match === null || match[1] === match[2]) return null;
  }
  return rules;
}

const OK_NO_STATE: Outcome = { result: 'ok', detail: null, newState: null, newVersion: null };

function okWith(newState: string | null): Outcome {
  return { result: 'ok', detail: null, newState, newVersion: null };
}

export class TeamMembership {
  readonly workspace: string;
  readonly #legacy: LegacyDirectory;
  #members = new Map<string, Member>();
  #rules: string[] = [...DEFAULT_APPROVAL_RULES].sort();
  #pending: PendingPolicy | null = null;
  /** The seq of the genesis or the roster: from there on, membership is signed. */
  #signedFrom: number | null = null;
  #events = 0;

  constructor(workspace: string, legacy: LegacyDirectory) {
    this.workspace = workspace;
    this.#legacy = legacy;
  }

  get signed(): boolean {
    return this.#signedFrom !== null;
  }

  get signedFrom(): number | null {
    return this.#signedFrom;
  }

  get rules(): readonly string[] {
    return this.#rules;
  }

  get pendingPolicy(): PendingPolicy | null {
    return this.#pending;
  }

  members(): Member[] {
    return [...this.#members.values()].map((member) => ({ ...member }));
  }

  member(login: string): Member | null {
    const found = this.#members.get(login);
    return found === undefined ? null : { ...found };
  }

  /** A copy to decide a page on; kept only if the whole page verifies. */
  snapshot(): TeamMembership {
    const copy = new TeamMembership(this.workspace, this.#legacy);
    copy.#members = new Map([...this.#members].map(([login, member]) => [login, { ...member }]));
    copy.#rules = [...this.#rules];
    copy.#pending = this.#pending === null ? null : { ...this.#pending, rules: [...this.#pending.rules] };
    copy.#signedFrom = this.#signedFrom;
    copy.#events = this.#events;
    return copy;
  }

  isActiveMember(login: string): boolean {
    const member = this.#members.get(login);
    return member !== undefined && member.active;
  }

  isLead(login: string): boolean | 'unknown' {
    const member = this.#members.get(login);
    if (member === undefined || !member.active) return false;
    if (member.role === null) return 'unknown';
    return member.role === 'lead';
  }

  personOf(login: string): string {
    return this.#members.get(login)?.person ?? login;
  }

  /**
   * The key `event`'s signature must verify with: the signer's key as the history introduced it
   * (a join's own new key, the genesis's lead key), or, before membership was signed, the key the
   * server listed for a login with a join event. Throws MembershipBroken naming why there is none.
   */
  signingKey(event: TeamEventRow): Buffer {
    const who = event.officer;
    if (event.kind === 'workspace' && event.action === 'genesis') {
      const terms = parseTerms('genesis', event.disposition);
      if (terms === null) throw new MembershipBroken('its founding terms are not well-formed');
      return keyOfText(terms.sign);
    }
    if (event.kind === 'member' && event.action === 'join') {
      if (this.signed) {
        const terms = parseTerms('join', event.disposition);
        if (terms === null) throw new MembershipBroken(`${who}'s join does not carry its keys and its invite's proof`);
        return keyOfText(terms.sign);
      }
      const key = this.#legacy.keys.get(who);
      if (key === undefined) throw new MembershipBroken(`the server lists no signing key for ${who}`);
      return key;
    }
    const member = this.#members.get(who);
    if (member === undefined)
      throw new MembershipBroken(
        this.signed
          ? `it is signed by ${who}, whom no lead of ${this.workspace} introduced (no invite of ${who} in the signed history)`
          : `it is signed by ${who}, who never joined ${this.workspace} (no join event of ${who} in the history)`,
      );
    if (!member.active)
      throw new MembershipBroken(
        `it is signed by ${who}, who ${member.removedSeq === null ? 'is not a member' : `was removed at event ${String(member.removedSeq)}`}`,
      );
    if (!member.joined || member.sign === null)
      throw new MembershipBroken(`it is signed by ${who}, who was invited but has not joined`);
    return member.sign;
  }

  /** Decides a membership or workspace event and applies it; MembershipBroken when it breaks the rules. */
  decide(event: TeamEventRow): Outcome {
    this.#events += 1;
    if (event.result !== 'ok')
      throw new MembershipBroken('membership and policy events are recorded only when they hold');
    if (event.kind === 'workspace') {
      if (event.ref !== this.workspace) throw new MembershipBroken(`it names another workspace (${event.ref})`);
      switch (event.action) {
        case 'genesis':
          return this.#genesis(event);
        case 'roster':
          return this.#roster(event);
        case 'policy':
          return this.#policy(event);
        case 'policy-approve':
        case 'policy-reject':
          return this.#policyDecision(event);
        default:
          throw new MembershipBroken(`there is no workspace action ${event.action}`);
      }
    }
    switch (event.action) {
      case 'invite':
        return this.#invite(event);
      case 'join':
        return this.#join(event);
      case 'remove':
        return this.#remove(event);
      case 'confirm':
        return this.#confirm(event);
      default:
        throw new MembershipBroken(`there is no member action ${event.action}`);
    }
  }

  #activeLead(login: string, what: string): Member {
    const member = this.#members.get(login);
    const lead = this.isLead(login);
    if (member === undefined || !member.active || !member.joined || lead === false)
      throw new MembershipBroken(`only an active lead ${what}, and ${login} is not one`);
    return member;
  }

  #genesis(event: TeamEventRow): Outcome {
    if (this.#events !== 1 || event.seq !== 1)
      throw new MembershipBroken('a workspace is founded by its first event only');
    const terms = parseTerms('genesis', event.disposition);
    if (terms === null) throw new MembershipBroken('its founding terms are not well-formed');
    if (terms.lead !== event.officer)
      throw new MembershipBroken(`it names ${terms.lead} as lead but ${event.officer} signed it`);
    const rules = rulesOf(terms.rules.join(','));
    if (rules === null) throw new MembershipBroken('its four-eyes rules are not sorted "from>to" rules named once');
    this.#members.set(terms.lead, {
      login: terms.lead,
      role: 'lead',
      active: true,
      joined: true,
      sign: keyOfText(terms.sign),
      box: keyOfText(terms.box),
      invitedBy: null,
      person: terms.lead,
      founding: true,
      invite: null,
      introducedSeq: event.seq,
      joinedSeq: event.seq,
      removedSeq: null,
    });
    for (const founding of terms.members) {
      if (this.#members.has(founding.login)) throw new MembershipBroken(`it names ${founding.login} twice`);
      this.#members.set(founding.login, {
        login: founding.login,
        role: founding.role,
        active: true,
        joined: false,
        sign: null,
        box: null,
        invitedBy: terms.lead,
        person: founding.login,
        founding: true,
        invite: { key: founding.inviteKey, expires: founding.expires, eventId: event.id },
        introducedSeq: event.seq,
        joinedSeq: null,
        removedSeq: null,
      });
    }
    this.#rules = rules;
    this.#signedFrom = event.seq;
    return OK_NO_STATE;
  }

  #roster(event: TeamEventRow): Outcome {
    if (this.signed) throw new MembershipBroken('the membership of this workspace is already signed');
    const terms = parseTerms('roster', event.disposition);
    if (terms === null) throw new MembershipBroken('its roster is not well-formed');
    const signer = terms.members.find((member) => member.login === event.officer);
    if (signer?.role !== 'lead')
      throw new MembershipBroken(`it is signed by ${event.officer}, whom it does not name as a lead`);
    if (rulesOf(terms.rules.join(',')) === null || terms.rules.join(',') !== this.#rules.join(','))
      throw new MembershipBroken(
        `its four-eyes rules (${terms.rules.join(', ') || 'none'}) are not the ones in force (${this.#rules.join(', ') || 'none'})`,
      );
    const listed = new Set<string>();
    for (const entry of terms.members) {
      if (listed.has(entry.login)) throw new MembershipBroken(`it names ${entry.login} twice`);
      listed.add(entry.login);
      const known = this.#members.get(entry.login);
      if (known === undefined || !known.active || !known.joined)
        throw new MembershipBroken(`it names ${entry.login}, who is not a member that joined`);
      if (known.sign !== null && !known.sign.equals(keyOfText(entry.sign)))
        throw new MembershipBroken(`it gives ${entry.login} another signing key than the history's`);
    }
    for (const [login, member] of this.#members)
      if (!listed.has(login) && member.active) {
        member.active = false;
        member.removedSeq = event.seq;
      }
    for (const entry of terms.members)
      this.#members.set(entry.login, {
        ...(this.#members.get(entry.login) as Member),
        role: entry.role,
        sign: keyOfText(entry.sign),
        box: keyOfText(entry.box),
        invitedBy: null,
        person: entry.login,
        founding: true,
      });
    this.#signedFrom = event.seq;
    return OK_NO_STATE;
  }

  #invite(event: TeamEventRow): Outcome {
    if (!this.signed) throw new MembershipBroken('invites are signed events only once the membership is signed');
    const lead = this.#activeLead(event.officer, 'invites');
    const terms = parseTerms('invite', event.disposition);
    if (terms === null) throw new MembershipBroken('its invite terms are not well-formed');
    const existing = this.#members.get(event.ref);
    if (existing !== undefined) {
      if (!existing.active || existing.joined)
        throw new MembershipBroken(`${event.ref} is already a member (or was removed)`);
      if (existing.role !== terms.role) throw new MembershipBroken(`a new invite does not change ${event.ref}'s role`);
      existing.invite = { key: terms.inviteKey, expires: terms.expires, eventId: event.id };
      return okWith(existing.person);
    }
    const member: Member = {
      login: event.ref,
      role: terms.role,
      active: true,
      joined: false,
      sign: null,
      box: null,
      invitedBy: lead.login,
      person: lead.person,
      founding: false,
      invite: { key: terms.inviteKey, expires: terms.expires, eventId: event.id },
      introducedSeq: event.seq,
      joinedSeq: null,
      removedSeq: null,
    };
    this.#members.set(member.login, member);
    return okWith(member.person);
  }

  #join(event: TeamEventRow): Outcome {
    if (event.ref !== event.officer)
      throw new MembershipBroken(`${event.officer} signed a join in ${event.ref}'s name`);
    if (!this.signed) {
      if (event.disposition !== null) throw new MembershipBroken('a join before the roster carries no terms');
      const known = this.#members.get(event.officer);
      if (known !== undefined) throw new MembershipBroken(`${event.officer} joined before`);
      this.#members.set(event.officer, {
        login: event.officer,
        role: this.#legacy.roles.get(event.officer) ?? null,
        active: true,
        joined: true,
        sign: this.#legacy.keys.get(event.officer) ?? null,
        box: null,
        invitedBy: null,
        person: event.officer,
        founding: false,
        invite: null,
        introducedSeq: event.seq,
        joinedSeq: event.seq,
        removedSeq: null,
      });
      return OK_NO_STATE;
    }
    const terms = parseTerms('join', event.disposition);
    if (terms === null)
      throw new MembershipBroken(`${event.officer}'s join does not carry its keys and its invite's proof`);
    const member = this.#members.get(event.officer);
    if (member === undefined)
      throw new MembershipBroken(
        `no lead of ${this.workspace} invited ${event.officer} (no invite in the signed history)`,
      );
    if (!member.active || member.joined || member.invite === null)
      throw new MembershipBroken(`${event.officer} has no invite left to use`);
    if (terms.invite !== member.invite.eventId)
      throw new MembershipBroken(`it names another invite than the last one a lead signed for ${event.officer}`);
    if (event.at.slice(0, 23) > member.invite.expires.slice(0, 23))
      throw new MembershipBroken(`${event.officer}'s invite expired at ${member.invite.expires}, before this join`);
    if (!joinProofHolds(member.invite.key, this.workspace, event.officer, terms))
      throw new MembershipBroken(
        `its proof was not made with ${event.officer}'s invite (someone joined without the invite file)`,
      );
    member.joined = true;
    member.sign = keyOfText(terms.sign);
    member.box = keyOfText(terms.box);
    member.invite = null;
    member.joinedSeq = event.seq;
    return okWith(member.person);
  }

  #remove(event: TeamEventRow): Outcome {
    this.#activeLead(event.officer, 'removes members');
    if (event.ref === event.officer) throw new MembershipBroken('a lead cannot remove themselves');
    const target = this.#members.get(event.ref);
    if (target === undefined || !target.active) throw new MembershipBroken(`${event.ref} is not an active member`);
    if (event.keyVersion === null)
      throw new MembershipBroken('a removal rotates the team key, and names its new version');
    target.active = false;
    target.invite = null;
    target.removedSeq = event.seq;
    return OK_NO_STATE;
  }

  #confirm(event: TeamEventRow): Outcome {
    if (!this.signed) throw new MembershipBroken('confirmations exist only once the membership is signed');
    const terms = parseTerms('confirm', event.disposition);
    if (terms === null) throw new MembershipBroken('its confirmation terms are not well-formed');
    const signer = this.#members.get(event.officer);
    const target = this.#members.get(event.ref);
    if (signer === undefined || !signer.active || !signer.joined)
      throw new MembershipBroken(`${event.officer} is not an active member`);
    if (event.ref === event.officer) throw new MembershipBroken('a member does not confirm themselves');
    if (target === undefined || !target.active || !target.joined || target.sign === null)
      throw new MembershipBroken(`${event.ref} is not a member that joined`);
    if (terms.sign !== keyText(target.sign)) throw new MembershipBroken(`it confirms another key than ${event.ref}'s`);
    if (signer.person !== target.person) target.person = target.login;
    return okWith(target.person);
  }

  #policy(event: TeamEventRow): Outcome {
    const rules = rulesOf(event.disposition);
    if (rules === null) throw new MembershipBroken('its rules are not sorted "from>to" rules named once');
    if (!this.signed) {
      this.#legacyLead(event.officer, 'changes the policy');
      this.#rules = rules;
      return OK_NO_STATE;
    }
    this.#activeLead(event.officer, 'changes the policy');
    if (this.#pending !== null)
      throw new MembershipBroken(`a weaker policy proposed by ${this.#pending.by} still awaits a second lead`);
    if (this.#rules.every((rule) => rules.includes(rule))) {
      this.#rules = rules;
      return okWith('in-force');
    }
    this.#pending = { rules, by: event.officer, hash: Buffer.from(event.hash).toString('hex'), seq: event.seq };
    return okWith('pending');
  }

  #policyDecision(event: TeamEventRow): Outcome {
    if (!this.signed) throw new MembershipBroken('policy approvals exist only once the membership is signed');
    this.#activeLead(event.officer, 'decides a weaker policy');
    const pending = this.#pending;
    if (pending === null) throw new MembershipBroken('no weaker policy awaits a decision');
    if (event.disposition !== pending.hash)
      throw new MembershipBroken(
        `it names another policy than the one ${pending.by} proposed at event ${String(pending.seq)}`,
      );
    if (event.action === 'policy-reject') {
      this.#pending = null;
      return okWith('withdrawn');
    }
    if (this.personOf(event.officer) === this.personOf(pending.by))
      throw new MembershipBroken(
        `a weaker policy needs a second lead, and ${event.officer} counts as ${pending.by}'s person (${this.personOf(pending.by)})`,
      );
    this.#pending = null;
    this.#rules = pending.rules;
    return okWith('in-force');
  }

  #legacyLead(login: string, what: string): void {
    const member = this.#members.get(login);
    if (member === undefined || !member.active)
      throw new MembershipBroken(`only a member ${what}, and ${login} is not one`);
    if (member.role === 'officer')
      throw new MembershipBroken(`only a lead ${what}, and the server says ${login} is not one`);
  }
}
