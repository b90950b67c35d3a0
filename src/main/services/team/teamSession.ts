/**
 * Team mode on this laptop, assembled from its settings (team.json), its keychain entries and
 * its cache file: the one connection, the mirror, the desk (actions and queues) and the sync.
 * Also the lead's work that needs the team key (inviting and removing officers, which rotates
 * the key). `open` answers null when this laptop has not joined a team: solo mode.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { SecretStore } from '../credentials/secretStore.ts';
import { intentBytes, type TeamIntent } from './crypto/teamCanonical.ts';
import { fingerprint, signIntent } from './crypto/officerKeys.ts';
import { scramVerifier } from './crypto/scramVerifier.ts';
import { newTeamKey, sealForInvite, TeamKeyring, unwrapTeamKey, wrapTeamKey } from './crypto/teamKey.ts';
import { TeamMirror } from './laptop/teamMirror.ts';
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
import { RECOVERY_RECIPIENT } from './teamInit.ts';
import { TeamKeychain, type StoredOfficerKeys } from './teamKeychain.ts';
import { TeamItemNames, type LocalRecords } from './teamItemNames.ts';
import { TeamProblem } from './teamProblem.ts';
import { officersOf, workspaceInfo } from './teamServerReads.ts';
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
    this.keychain = new TeamKeychain(options.secretStore, settings.workspace);
    this.mirror = new TeamMirror(options.database);
    this.mirror.ensureWorkspace(settings.workspace, settings.login, settings.profileId);
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

  async members(): Promise<TeamMember[]> {
    const officers = await this.connection.with((db) => officersOf(db, this.workspace));
    return officers.map((officer) => ({
      login: officer.roleName,
      displayName: officer.displayName,
      role: officer.role,
      active: officer.active,
      joined: officer.signPublic !== null,
      signingKey: officer.signPublic === null ? null : fingerprint(officer.signPublic),
      boxKey: officer.boxPublic === null ? null : fingerprint(officer.boxPublic),
    }));
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
    };
  }

  /** A lead invites an officer: the login, the membership, and an invite file (mode 0600). */
  async invite(login: string, role: MemberRole, outFolder: string): Promise<string> {
    if (!LOGIN_PATTERN.test(login))
      throw new TeamProblem(
        'invalid',
        `"${login}" cannot be a login: lower-case letters, digits and _, starting with a letter.`,
      );
    const { boxPrivate, boxPublic } = await this.keys();
    const keys = new Map(
      this.mirror
        .wrappedKeys(this.workspace)
        .map((key) => [
          key.version,
          unwrapTeamKey(key.wrapped, boxPrivate, boxPublic, this.workspace, key.version, this.settings.login),
        ]),
    );
    const secret = randomBytes(32).toString('base64url');
    await this.connection.with((db) =>
      db.query('SELECT team.invite($1, $2, $3, $4, $5, $6)', [
        this.workspace,
        login,
        login,
        role,
        scramVerifier(secret),
        sealForInvite(keys, secret, this.workspace, login),
      ]),
    );
    const file = join(outFolder, `${login}.invite`);
    writeInvite(file, {
      format: 'ledgerdesk-team-invite-v1',
      workspace: this.workspace,
      login,
      displayName: login,
      role,
      server: this.settings.server,
      caPem: this.settings.caPem,
      caFingerprint: this.settings.caFingerprint,
      secret,
    });
    return file;
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
