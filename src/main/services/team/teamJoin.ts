/**
 * `ledger team join FILE`: an officer, once per laptop. Connects with the invite's one-time
 * secret over TLS verify-full against the invite's CA (a server certificate from another CA is
 * refused), opens the team keys the invite carries, makes the officer's Ed25519 and X25519 keys,
 * and in one server transaction registers the public keys, wraps the team keys for the officer,
 * spends the invite, appends a signed "join" event and replaces the login's password with a new
 * one known only to this laptop's keychain. An invite used twice, or expired, is refused by the
 * server.
 *
 * A v2 invite (issue 35) names the signed invite event it answers: the join event names it too
 * and carries the new keys countersigned with the invite's one-time key (derived from its
 * secret), so laptops accept this officer's key only from whoever held the invite file; and the
 * laptop pins the hash of the history's first event the invite names.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { SecretStore } from '../credentials/secretStore.ts';
import { intentBytes, type TeamIntent } from './crypto/teamCanonical.ts';
import { generateOfficerKeys, signIntent } from './crypto/officerKeys.ts';
import { scramVerifier } from './crypto/scramVerifier.ts';
import { openInvite, wrapTeamKey } from './crypto/teamKey.ts';
import { TeamMirror } from './laptop/teamMirror.ts';
import { describeServer, readInvite, writeTeamSettings, type TeamSettings } from './teamConfig.ts';
import { teamClientConfig } from './teamConnection.ts';
import { payloadOf } from './teamDesk.ts';
import { inviteKeyOf, joinProof, keyText, termsText } from './rules/memberTerms.ts';
import { TeamKeychain } from './teamKeychain.ts';
import { TeamProblem, teamProblemOf } from './teamProblem.ts';

export interface TeamJoinOptions {
  inviteFile: string;
  dataFolder: string;
  secretStore: SecretStore;
  database: DatabaseSync;
  /** The laptop profile this workspace maps to, if any. */
  profileId?: string | null;
  now?: () => Date;
}

export async function teamJoin(options: TeamJoinOptions): Promise<TeamSettings> {
  const invite = readInvite(options.inviteFile);
  const serverName = describeServer(invite.server);
  const client = new pg.Client(
    teamClientConfig(
      { server: invite.server, caPem: invite.caPem, login: invite.login, password: () => Promise.resolve('') },
      invite.secret,
    ),
  );
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    const problem = teamProblemOf(error, serverName);
    if (problem.kind === 'login-refused')
      throw new TeamProblem(
        'login-refused',
        `The team server ${serverName} refused this invite: it has already been used, or it was withdrawn.`,
      );
    throw problem;
  }
  const keychain = new TeamKeychain(options.secretStore, {
    workspace: invite.workspace,
    login: invite.login,
    dataFolder: options.dataFolder,
  });
  try {
    await client.query('BEGIN');
    const found = await client.query<{ wrapped: Buffer | null }>('SELECT team.my_invite($1) AS wrapped', [
      invite.workspace,
    ]);
    const sealedKeys = found.rows[0]?.wrapped;
    if (sealedKeys === null || sealedKeys === undefined)
      throw new TeamProblem('refused', 'This invite carries no team key any more (the officer was removed).');
    const teamKeys = openInvite(sealedKeys, invite.secret, invite.workspace, invite.login);
    const keys = generateOfficerKeys();
    const wraps = [...teamKeys].map(([version, key]) => ({
      version,
      wrapped: wrapTeamKey(key, keys.boxPublic, invite.workspace, version, invite.login),
    }));
    const disposition =
      invite.format === 'ledgerdesk-team-invite-v2'
        ? termsText('join', {
            v: 1,
            invite: invite.inviteEvent,
            sign: keyText(keys.signPublic),
            box: keyText(keys.boxPublic),
            proof: joinProof(
              inviteKeyOf(invite.secret, invite.workspace, invite.login).private,
              invite.workspace,
              invite.login,
              invite.inviteEvent,
              keyText(keys.signPublic),
              keyText(keys.boxPublic),
            ),
          })
        : null;
    const intent: TeamIntent = {
      id: randomUUID(),
      workspace: invite.workspace,
      kind: 'member',
      ref: invite.login,
      action: 'join',
      disposition,
      assignee: null,
      baseVersion: null,
      keyVersion: null,
      clientAt: (options.now?.() ?? new Date()).toISOString(),
      sealed: null,
    };
    const payload = payloadOf(intent, signIntent(keys.signPrivate, intentBytes(intent)));
    await client.query('SELECT team.join($1, $2, $3, $4::jsonb, $5::jsonb)', [
      invite.workspace,
      keys.signPublic,
      keys.boxPublic,
      JSON.stringify(wraps.map((wrap) => ({ version: wrap.version, wrapped: wrap.wrapped.toString('base64') }))),
      payload,
    ]);
    const password = randomBytes(32).toString('base64url');
    // A verifier contains only base64 characters, '$' and ':': nothing to escape in a literal.
    await client.query(`ALTER ROLE CURRENT_USER PASSWORD '${scramVerifier(password)}'`);
    // The keychain first: if it fails, the server's transaction is rolled back and the invite
    // is still good for another try.
    await keychain.saveKeys(keys);
    await keychain.setPassword(password);
    await client.query('COMMIT');
    const settings: TeamSettings = {
      format: 'ledgerdesk-team-v1',
      workspace: invite.workspace,
      login: invite.login,
      displayName: invite.displayName,
      role: invite.role,
      server: invite.server,
      caPem: invite.caPem,
      caFingerprint: invite.caFingerprint,
      profileId: options.profileId ?? null,
      ...(invite.format === 'ledgerdesk-team-invite-v2' ? { historyRoot: invite.historyRoot } : {}),
    };
    writeTeamSettings(options.dataFolder, settings);
    const mirror = new TeamMirror(options.database);
    mirror.transaction(() => {
      mirror.ensureWorkspace(invite.workspace, invite.login, settings.profileId);
      for (const wrap of wraps) mirror.saveWrappedKey(invite.workspace, wrap.version, wrap.wrapped);
      if (settings.historyRoot !== undefined)
        mirror.setRootHash(invite.workspace, Buffer.from(settings.historyRoot, 'hex'));
    });
    return settings;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw teamProblemOf(error, serverName);
  } finally {
    await client.end().catch(() => undefined);
  }
}
