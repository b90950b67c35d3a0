/**
 * Team mode on this laptop, assembled from its settings (team.json), its keychain entries and
 * its cache file: the one connection, the mirror, the desk (actions and queues) and the sync.
 * Also the lead's work that needs the team key or the lead's signature (inviting and removing
 * officers, which rotates the key; signing the roster of a workspace made before issue 35), and
 * the members as the verified history introduced them, with the ones this officer has not yet
 * acknowledged after comparing fingerprints. `open` answers null when this laptop has not joined
 * a team: solo mode.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { SecretStore } from '../credentials/secretStore.ts';
import { intentBytes, type TeamIntent } from './crypto/teamCanonical.ts';
import { fingerprint, signIntent } from './crypto/officerKeys.ts';
import { scramVerifier } from './crypto/scramVerifier.ts';
import { newTeamKey, sealForInvite, TeamKeyring, unwrapTeamKey, wrapTeamKey } from './crypto/teamKey.ts';
import { RULES_REBUILT, TeamMirror } from './laptop/teamMirror.ts';
import { inviteKeyOf, keyText, termsText } from './rules/memberTerms.ts';
import { TeamMembership, type Member } from './rules/teamMembership.ts';
import {
  describeServer,
  LOGIN_PATTERN,
  readTeamSettings,
  writeInvite,
  type MemberRole,
  type TeamSettings,
} from './teamConfig.ts';
import { TeamConnection } from './teamConnection.ts';
import { payloadOf, TeamDesk } from './teamDesk.ts';
import { inviteLifetimeOf, RECOVERY_RECIPIENT } from './teamInit.ts';
import { TeamKeychain, type StoredOfficerKeys } from './teamKeychain.ts';
import { TeamItemNames, type LocalRecords } from './teamItemNames.ts';
import { TeamProblem } from './teamProblem.ts';
import { officersOf, workspaceInfo, type ServerOfficer } from './teamServerReads.ts';
import { TeamSync, type PullReport, type PushReport } from './teamSync.ts';

export interface TeamSessionOptions {
  dataFolder: string;
  secretStore: SecretStore;
  database: DatabaseSync;
  /** The laptop's own records, to name its pending transactions for the team (teamItemNames.ts). */
  records?: LocalRecords;
  now?: () => Date;
  connectTimeoutMs?: number;
  queryTimeoutMs?: number;
  pushBatch?: number;
  pullPage?: number;
}

export interface SyncOutcome {
  push: PushReport | null;
  pull: PullReport | null;
  /** Why the server could not be reached or refused: actions stay queued. */
  problem: string | null;
}

export interface TeamMember {
  login: string;
  displayName: string;
  role: 'lead' | 'officer';
  active: boolean;
  joined: boolean;
  signingKey: string | null;
  boxKey: string | null;
  /** Who introduced this login in the signed history: a lead's invite, the genesis, the roster. */
  introducedBy: string | null;
  /** Who this login counts as for four-eyes (itself, or its inviting lead until confirmed). */
  countsAs: string;
  /** When an invite not yet used expires. */
  inviteExpires: string | null;
  /**
   * 'acknowledged' (this officer compared the fingerprint), 'new' (not yet: a notice to
   * acknowledge), 'self', or 'unsigned': the server lists the login but the signed history
   * never introduced it (nothing it signs is accepted).
   */
  notice: 'acknowledged' | 'new' | 'self' | 'unsigned';
}

export interface PolicyState {
  workspace: string;
  /** Sorted "from>to" rules in force; empty: no move needs a second officer. */
  rules: string[];
  /** A weaker policy waiting for a second lead, with the hash a decision must name. */
  pending: { rules: string[]; by: string; seq: number; hash: string } | null;
  /** Whether the workspace's membership and policy are in its signed history. */
  signed: boolean;
}

export class TeamSession {
  readonly settings: TeamSettings;
  readonly keychain: TeamKeychain;
  readonly mirror: TeamMirror;
  readonly connection: TeamConnection;
  readonly desk: TeamDesk;
  readonly sync: TeamSync;
  readonly #now: () => Date;
  #keys: StoredOfficerKeys | null = null;
  #keyring: { count: number; keyring: TeamKeyring } | null = null;

  private constructor(settings: TeamSettings, options: TeamSessionOptions) {
    this.settings = settings;
    this.#now = options.now ?? (() => new Date());
    this.mirror = new TeamMirror(options.database);
    this.mirror.ensureWorkspace(settings.workspace, settings.login, settings.profileId);
    if (settings.historyRoot !== undefined)
      this.mirror.setRootHash(settings.workspace, Buffer.from(settings.historyRoot, 'hex'));
    if (this.mirror.rulesVersion(settings.workspace) < RULES_REBUILT) this.mirror.rebuildReviews(settings.workspace);
    this.keychain = new TeamKeychain(options.secretStore, {
      workspace: settings.workspace,
      login: settings.login,
      dataFolder: options.dataFolder,
      expectedSignKey: () => this.mirror.pinnedOfficers(settings.workspace).get(settings.login)?.signPublic ?? null,
    });
    this.connection = new TeamConnection({
      server: settings.server,
      caPem: settings.caPem,
      login: settings.login,
      password: () => this.keychain.password(),
      ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
      ...(options.queryTimeoutMs === undefined ? {} : { queryTimeoutMs: options.queryTimeoutMs }),
    });
    this.desk = new TeamDesk({
      workspace: settings.workspace,
      login: settings.login,
      mirror: this.mirror,
      keys: () => this.keys(),
      keyring: () => this.keyring(),
      names: new TeamItemNames({
        records: options.records ?? null,
        profileId: () => this.mirror.profileOf(settings.workspace),
        keyring: () => this.keyring(),
      }),
      signedMembership: () => this.mirror.membershipSigned(settings.workspace),
      now: this.#now,
    });
    this.sync = new TeamSync({
      workspace: settings.workspace,
      mirror: this.mirror,
      connection: this.connection,
      keychain: this.keychain,
      now: this.#now,
      ...(options.pushBatch === undefined ? {} : { pushBatch: options.pushBatch }),
      ...(options.pullPage === undefined ? {} : { pullPage: options.pullPage }),
    });
  }

  static open(options: TeamSessionOptions): TeamSession | null {
    const settings = readTeamSettings(options.dataFolder);
    return settings === null ? null : new TeamSession(settings, options);
  }

  get workspace(): string {
    return this.settings.workspace;
  }

  async keys(): Promise<StoredOfficerKeys> {
    this.#keys ??= await this.keychain.keys();
    return this.#keys;
  }

  /** The team keys this laptop holds, unwrapped with the officer's X25519 key. */
  async keyring(): Promise<TeamKeyring> {
    const wrapped = this.mirror.wrappedKeys(this.workspace);
    if (this.#keyring !== null && this.#keyring.count === wrapped.length) return this.#keyring.keyring;
    if (wrapped.length === 0)
      throw new TeamProblem('not-joined', `This laptop holds no team key for ${this.workspace}.`);
    const { boxPrivate, boxPublic } = await this.keys();
    const keys = new Map(
      wrapped.map((key) => [
        key.version,
        unwrapTeamKey(key.wrapped, boxPrivate, boxPublic, this.workspace, key.version, this.settings.login),
      ]),
    );
    const keyring = new TeamKeyring(keys, Math.max(...keys.keys()));
    this.#keyring = { count: wrapped.length, keyring };
    return keyring;
  }

  /** Push what is queued, then pull and verify; a server that cannot be reached is no failure. */
  async synchronise(): Promise<SyncOutcome> {
    const outcome: SyncOutcome = { push: null, pull: null, problem: null };
    try {
      outcome.push = await this.sync.push();
      outcome.pull = await this.sync.pull();
    } catch (error) {
      if (error instanceof TeamProblem && error.kind === 'unreachable') outcome.problem = error.message;
      else throw error;
    }
    return outcome;
  }

  /**
   * The membership and policy as this laptop's verified history makes them (offline). Before the
   * history signs its membership, who may sign is whoever joined, with the keys pinned when first
   * seen, and who leads is what the server said then.
   */
  membership(): TeamMembership {
    const pinned = this.mirror.pinnedOfficers(this.workspace);
    const membership = new TeamMembership(this.workspace, {
      keys: new Map([...pinned].map(([login, officer]) => [login, officer.signPublic])),
      roles: new Map(
        [...pinned].flatMap(([login, officer]) => (officer.role === null ? [] : [[login, officer.role] as const])),
      ),
    });
    for (const event of this.mirror.membershipEvents(this.workspace)) membership.decide(event);
    return membership;
  }

  /**
   * The members as the verified history introduced them, with what this officer has
   * acknowledged; and, when the server answers, the logins it lists that the signed history
   * never introduced ('unsigned': the server's own say, trusted for nothing).
   */
  async members(): Promise<TeamMember[]> {
    let listed: ServerOfficer[] = [];
    try {
      // What the server holds that this laptop has not verified yet is not "unsigned": pull
      // first. A pull refused as tampered leaves the verified part, which is what is shown.
      await this.sync.pull().catch((error: unknown) => {
        if (!(error instanceof TeamProblem) || error.kind !== 'tampered') throw error;
      });
      listed = await this.connection.with((db) => officersOf(db, this.workspace));
    } catch (error) {
      if (!(error instanceof TeamProblem) || error.kind !== 'unreachable') throw error;
    }
    const membership = this.membership();
    const acknowledged = this.mirror.acknowledgedMembers(this.workspace);
    const rows = membership.members().map((member) => this.#memberRow(member, acknowledged));
    const known = new Set(rows.map((row) => row.login));
    for (const officer of listed)
      if (!known.has(officer.roleName) && officer.active && (membership.signed || officer.signPublic !== null))
        rows.push({
          login: officer.roleName,
          displayName: officer.displayName,
          role: officer.role,
          active: officer.active,
          joined: officer.signPublic !== null,
          signingKey: officer.signPublic === null ? null : fingerprint(officer.signPublic),
          boxKey: officer.boxPublic === null ? null : fingerprint(officer.boxPublic),
          introducedBy: null,
          countsAs: officer.roleName,
          inviteExpires: null,
          notice: 'unsigned',
        });
    return rows.sort((a, b) => a.login.localeCompare(b.login));
  }

  #memberRow(member: Member, acknowledged: ReadonlyMap<string, Buffer>): TeamMember {
    const seen = acknowledged.get(member.login);
    return {
      login: member.login,
      displayName: member.login,
      role: member.role ?? 'officer',
      active: member.active,
      joined: member.joined,
      signingKey: member.sign === null ? null : fingerprint(member.sign),
      boxKey: member.box === null ? null : fingerprint(member.box),
      introducedBy: member.invitedBy,
      countsAs: member.person,
      inviteExpires: member.invite?.expires ?? null,
      notice:
        member.login === this.settings.login
          ? 'self'
          : member.sign !== null && seen !== undefined && seen.equals(member.sign)
            ? 'acknowledged'
            : 'new',
    };
  }

  /** Members who joined and whose fingerprint this officer has not acknowledged yet. */
  newMembers(): TeamMember[] {
    const acknowledged = this.mirror.acknowledgedMembers(this.workspace);
    return this.membership()
      .members()
      .filter((member) => member.active && member.joined)
      .map((member) => this.#memberRow(member, acknowledged))
      .filter((row) => row.notice === 'new');
  }

  /**
   * The officer acknowledges a member after comparing their signing-key fingerprint with them
   * (in person, or on a call they trust): `fingerprint` is what they compared. Once the history
   * signs its membership, the acknowledgement is also a signed "confirm" event (online): from
   * then on a member invited by a lead counts as a person of their own for four-eyes, when the
   * one confirming is another person than the lead.
   */
  async acknowledgeMember(login: string, compared: string): Promise<{ countsAs: string; confirmed: boolean }> {
    const membership = this.membership();
    const member = membership.member(login);
    if (member === null || !member.active || !member.joined || member.sign === null)
      throw new TeamProblem('invalid', `${login} is not a member of ${this.workspace} who has joined.`);
    if (login === this.settings.login) throw new TeamProblem('invalid', 'You do not acknowledge yourself.');
    const expected = fingerprint(member.sign);
    if (compared.replace(/\s+/g, '').toLowerCase() !== expected.replace(/\s+/g, ''))
      throw new TeamProblem(
        'invalid',
        `That is not ${login}'s fingerprint: the verified history gives ${login} the signing key ${expected}. If ${login} reads you another one, do not acknowledge: tell your team lead.`,
      );
    let countsAs = member.person;
    let confirmed = false;
    if (membership.signed) {
      const keys = await this.keys();
      const intent: TeamIntent = {
        id: randomUUID(),
        workspace: this.workspace,
        kind: 'member',
        ref: login,
        action: 'confirm',
        disposition: termsText('confirm', { v: 1, sign: keyText(member.sign) }),
        assignee: null,
        baseVersion: null,
        keyVersion: null,
        clientAt: this.#now().toISOString(),
        sealed: null,
      };
      const answer = await this.connection.with(async (db) => {
        const result = await db.query<{ answer: { person: string } }>(
          'SELECT team.confirm_member($1, $2::jsonb) AS answer',
          [this.workspace, payloadOf(intent, signIntent(keys.signPrivate, intentBytes(intent)))],
        );
        return result.rows[0]?.answer;
      });
      countsAs = answer?.person ?? countsAs;
      confirmed = true;
      await this.sync.pull();
    }
    this.mirror.acknowledgeMember(this.workspace, login, member.sign, this.#now().toISOString());
    return { countsAs, confirmed };
  }

  status(): {
    workspace: string;
    login: string;
    role: MemberRole;
    server: string;
    head: { seq: number; hash: string };
    queued: number;
    conflicts: number;
    pulledAt: string | null;
    profileId: string | null;
    /** Whether membership and policy are in the signed history (false: a lead runs `team upgrade`). */
    membershipSigned: boolean;
    /** Members joined whose fingerprint this officer has not acknowledged yet. */
    newMembers: number;
  } {
    const head = this.mirror.head(this.workspace);
    return {
      workspace: this.workspace,
      login: this.settings.login,
      role: this.settings.role,
      server: describeServer(this.settings.server),
      head: { seq: head.seq, hash: head.hash.toString('hex') },
      queued: this.mirror.queuedCount(this.workspace),
      conflicts: this.mirror.conflicts(this.workspace, 10_000).length,
      pulledAt: this.mirror.pulledAt(this.workspace),
      profileId: this.mirror.profileOf(this.workspace),
      membershipSigned: this.mirror.membershipSigned(this.workspace),
      newMembers: this.newMembers().length,
    };
  }

  /**
   * A lead invites an officer (or invites again one who has not joined, e.g. whose invite
   * expired): the login, the membership and a signed invite event naming the login, the role,
   * the invite's one-time public key and when it expires; and an invite file (mode 0600). The
   * invitee counts as this lead's person for four-eyes until another person confirms them.
   */
  async invite(
    login: string,
    role: MemberRole,
    outFolder: string,
    lifetimeMs?: number,
  ): Promise<{ file: string; expires: string }> {
    if (!LOGIN_PATTERN.test(login))
      throw new TeamProblem(
        'invalid',
        `"${login}" cannot be a login: lower-case letters, digits and _, starting with a letter.`,
      );
    const lifetime = inviteLifetimeOf(lifetimeMs);
    await this.sync.pull();
    if (!this.mirror.membershipSigned(this.workspace))
      throw new TeamProblem(
        'refused',
        `The membership of ${this.workspace} is not in its signed history yet (it was made before Ledgerdesk signed it): run \`ledger team upgrade\` first.`,
      );
    const root = this.mirror.event(this.workspace, 1);
    if (root === null) throw new TeamProblem('refused', `This laptop holds no verified history of ${this.workspace}.`);
    const { boxPrivate, boxPublic, signPrivate } = await this.keys();
    const keys = new Map(
      this.mirror
        .wrappedKeys(this.workspace)
        .map((key) => [
          key.version,
          unwrapTeamKey(key.wrapped, boxPrivate, boxPublic, this.workspace, key.version, this.settings.login),
        ]),
    );
    const secret = randomBytes(32).toString('base64url');
    const expires = new Date(this.#now().getTime() + lifetime).toISOString();
    const intent: TeamIntent = {
      id: randomUUID(),
      workspace: this.workspace,
      kind: 'member',
      ref: login,
      action: 'invite',
      disposition: termsText('invite', {
        v: 1,
        role,
        inviteKey: keyText(inviteKeyOf(secret, this.workspace, login).public),
        expires,
      }),
      assignee: null,
      baseVersion: null,
      keyVersion: null,
      clientAt: this.#now().toISOString(),
      sealed: null,
    };
    await this.connection.with((db) =>
      db.query('SELECT team.invite_member($1, $2, $3, $4, $5, $6, $7, $8::jsonb)', [
        this.workspace,
        login,
        login,
        role,
        scramVerifier(secret),
        sealForInvite(keys, secret, this.workspace, login),
        expires,
        payloadOf(intent, signIntent(signPrivate, intentBytes(intent))),
      ]),
    );
    const file = join(outFolder, `${login}.invite`);
    writeInvite(file, {
      format: 'ledgerdesk-team-invite-v2',
      workspace: this.workspace,
      login,
      displayName: login,
      role,
      server: this.settings.server,
      caPem: this.settings.caPem,
      caFingerprint: this.settings.caFingerprint,
      secret,
      invitedBy: this.settings.login,
      inviteEvent: intent.id,
      expires,
      historyRoot: Buffer.from(root.hash).toString('hex'),
    });
    await this.sync.pull();
    return { file, expires };
  }

  /**
   * A lead signs the roster of a workspace made before issue 35: the members who joined, with
   * the keys this laptop verified for them and the roles the server gave, and the policy in force.
   * From this event on, the history signs its membership. What it proves: that this lead, after
   * comparing the fingerprints `rosterPreview` lists, vouched for these members and keys at the
   * upgrade; not how each of them was invited before it (that was never signed).
   */
  async rosterPreview(): Promise<{ login: string; role: MemberRole; signingKey: string }[]> {
    await this.sync.pull();
    return this.#roster().members.map((entry) => ({
      login: entry.login,
      role: entry.role,
      signingKey: fingerprint(Buffer.from(entry.sign, 'base64')),
    }));
  }

  #roster(): { rules: string[]; members: { login: string; role: MemberRole; sign: string; box: string }[] } {
    const membership = this.membership();
    if (membership.signed)
      throw new TeamProblem('refused', `The membership of ${this.workspace} is already in its signed history.`);
    const pinned = this.mirror.pinnedOfficers(this.workspace);
    const members = membership
      .members()
      .filter((member) => member.active && member.joined && member.sign !== null)
      .map((member) => {
        const pin = pinned.get(member.login);
        if (pin === undefined)
          throw new TeamProblem('refused', `This laptop holds no keys of ${member.login}: pull first.`);
        return {
          login: member.login,
          role: member.role ?? pin.role ?? 'officer',
          sign: keyText(pin.signPublic),
          box: keyText(pin.boxPublic),
        };
      });
    return { rules: [...membership.rules], members };
  }

  async signRoster(): Promise<{ seq: number; members: number }> {
    if (this.settings.role !== 'lead')
      throw new TeamProblem('refused', `Only a lead of ${this.workspace} signs its roster.`);
    await this.sync.pull();
    const roster = this.#roster();
    if (!roster.members.some((member) => member.login === this.settings.login && member.role === 'lead'))
      throw new TeamProblem('refused', `${this.settings.login} is not a lead who joined ${this.workspace}.`);
    const { signPrivate } = await this.keys();
    const intent: TeamIntent = {
      id: randomUUID(),
      workspace: this.workspace,
      kind: 'workspace',
      ref: this.workspace,
      action: 'roster',
      disposition: termsText('roster', { v: 1, rules: roster.rules, members: roster.members }),
      assignee: null,
      baseVersion: null,
      keyVersion: null,
      clientAt: this.#now().toISOString(),
      sealed: null,
    };
    const answer = await this.connection.with(async (db) => {
      const result = await db.query<{ answer: { seq: number } }>('SELECT team.sign_roster($1, $2::jsonb) AS answer', [
        this.workspace,
        payloadOf(intent, signIntent(signPrivate, intentBytes(intent))),
      ]);
      return result.rows[0]?.answer;
    });
    if (answer === undefined) throw new TeamProblem('refused', 'The team server did not record the roster.');
    await this.sync.pull();
    return { seq: answer.seq, members: roster.members.length };
  }

  /**
   * A lead removes an officer: membership ends and the team key rotates (a new version wrapped
   * for every officer who stays and for the recovery key), in one server transaction, with a
   * signed "remove" event in the history. Notes sealed from now on are closed to the removed
   * officer; what they already read cannot be taken back.
   */
  async remove(login: string): Promise<{ keyVersion: number }> {
    if (login === this.settings.login) throw new TeamProblem('invalid', 'A lead cannot remove themselves.');
    const keys = await this.keys();
    const result = await this.connection.with(async (db) => {
      const info = await workspaceInfo(db, this.workspace);
      if (info === null)
        throw new TeamProblem('refused', `${this.workspace} is not visible to ${this.settings.login}.`);
      const officers = await officersOf(db, this.workspace);
      if (!officers.some((officer) => officer.roleName === login && officer.active))
        throw new TeamProblem('invalid', `${login} is not an active member of ${this.workspace}.`);
      const version = info.keyVersion + 1;
      const teamKey = newTeamKey();
      const wraps = officers
        .filter((officer) => officer.active && officer.roleName !== login && officer.boxPublic !== null)
        .map((officer) => ({
          role_name: officer.roleName,
          wrapped: wrapTeamKey(
            teamKey,
            officer.boxPublic as Buffer,
            this.workspace,
            version,
            officer.roleName,
          ).toString('base64'),
        }));
      wraps.push({
        role_name: RECOVERY_RECIPIENT,
        wrapped: wrapTeamKey(teamKey, info.recoveryPublic, this.workspace, version, RECOVERY_RECIPIENT).toString(
          'base64',
        ),
      });
      const intent: TeamIntent = {
        id: randomUUID(),
        workspace: this.workspace,
        kind: 'member',
        ref: login,
        action: 'remove',
        disposition: null,
        assignee: null,
        baseVersion: null,
        keyVersion: version,
        clientAt: this.#now().toISOString(),
        sealed: null,
      };
      await db.query('SELECT team.remove_member($1, $2, $3, $4::jsonb, $5::jsonb)', [
        this.workspace,
        login,
        version,
        JSON.stringify(wraps),
        payloadOf(intent, signIntent(keys.signPrivate, intentBytes(intent))),
      ]);
      return { keyVersion: version };
    });
    await this.sync.pull();
    return result;
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
