/**
 * Team mode through `ledger`, as officers type it: the lead's `team init` on their own data
 * folder (the admin's password from a file, never the URL), each other officer's `team join`
 * with their own data folder and their own entry in a real Secret Service
 * (scripts/with-keyring.sh), the new-member notice each acknowledges after comparing
 * fingerprints, a proposal, a refused self-approval, an approval, the queues,
 * `audit verify --team`, and bad input as one line with a non-zero exit code.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../../src/main/services/credentials/keyringSecretStore.ts';
import { ledger } from '../services/support/ledgerRun.ts';
import { createTestDatabase, uniqueLogin } from '../../support/team/teamDatabase.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';
if (!secretServiceHere)
  process.stderr.write(
    'team CLI tests skipped: no throwaway Secret Service. Run them through scripts/with-keyring.sh.\n',
  );

describe.runIf(secretServiceHere)('ledger team and ledger review (team actions)', () => {
  it('two officers set up, propose, are refused self-approval, approve, and verify the history', async () => {
    const db = await createTestDatabase();
    const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-team-cli-'));
    const caFile = join(folder, 'ca.crt');
    writeFileSync(caFile, db.cluster.caPem);
    const alice = uniqueLogin('alice');
    const bob = uniqueLogin('bob');
    // Each officer: a data folder and a keychain service of their own.
    const aliceKeychain = new KeyringSecretStore(`Ledgerdesk test ${alice}`);
    const bobKeychain = new KeyringSecretStore(`Ledgerdesk test ${bob}`);
    const asAlice = (...argv: string[]) => ledger(['--data', join(folder, 'alice'), ...argv], aliceKeychain);
    const asBob = (...argv: string[]) => ledger(['--data', join(folder, 'bob'), ...argv], bobKeychain);

    const passwordFile = join(folder, 'admin-password');
    writeFileSync(passwordFile, `${db.cluster.adminPassword}\n`, { mode: 0o600 });
    const adminUrl = db.adminUrl.replace(/:[^:@/]*@/, '@');
    const init = await ledger(
      [
        '--data',
        join(folder, 'alice'),
        'team',
        'init',
        adminUrl,
        '--password-file',
        passwordFile,
        '--ca',
        caFile,
        '--workspace',
        'cli-team',
        '--officer',
        alice,
        '--officer',
        bob,
        '--out',
        folder,
      ],
      aliceKeychain,
    );
    expect(init).toMatchObject({ code: 0, stderr: '' });
    expect(init.stdout).toMatch(new RegExp(`joined as its lead, ${alice}\\. Your signing key: ([0-9a-f]{4} ?){8}`));
    expect(init.stdout).toContain(`${bob} (officer): ${join(folder, `${bob}.invite`)} (usable until 20`);
    expect(init.stdout).not.toContain(db.cluster.adminPassword);
    const aliceKey = /Your signing key: ((?:[0-9a-f]{4} ?){8})/.exec(init.stdout)?.[1]?.trim() ?? '';

    const joined = await asBob('team', 'join', join(folder, `${bob}.invite`));
    expect(joined).toMatchObject({ code: 0 });
    expect(joined.stdout).toMatch(
      new RegExp(`Joined cli-team as ${bob} \\(officer\\)\\. Your signing key: [0-9a-f]{4}`),
    );
    // Bob's laptop shows alice as a new member to acknowledge once their fingerprints match.
    expect(joined.stderr).toContain(`new member ${alice} (lead), signing key ${aliceKey}.`);
    const wrong = await asBob('team', 'acknowledge', alice, '--fingerprint', '0000 1111');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`That is not ${alice}'s fingerprint`);
    expect(await asBob('team', 'acknowledge', alice, '--fingerprint', aliceKey)).toMatchObject({ code: 0 });
    const bobMembers = await asBob('team', 'members');
    expect(bobMembers.stdout).toMatch(
      new RegExp(`${alice}\\s+lead\\s+member\\s+-\\s+${alice}\\s+${aliceKey}\\s+acknowledged`),
    );
    const again = await asBob('team', 'join', join(folder, `${bob}.invite`));
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/refused this invite: it has already been used/);

    expect(
      await asAlice(
        'review',
        'propose',
        '--kind',
        'application',
        '--ref',
        'app_1',
        '--disposition',
        'flagged',
        '--note',
        'mismatched address',
      ),
    ).toMatchObject({
      code: 0,
      stdout: 'propose application app_1: ok\n',
    });
    await asBob('team', 'pull');
    expect(
      await asBob(
        'review',
        'propose',
        '--kind',
        'application',
        '--ref',
        'app_1',
        '--disposition',
        'cleared',
        '--note',
        'proof of address received',
      ),
    ).toMatchObject({ code: 0 });
    const self = await asBob('review', 'approve', '--kind', 'application', '--ref', 'app_1');
    expect(self).toMatchObject({
      code: 1,
      stdout:
        'approve application app_1: refused (four-eyes: the officer who proposed a disposition cannot approve it)\n',
    });
    await asAlice('team', 'pull');
    const queues = JSON.parse((await asAlice('team', 'queues', '--json')).stdout) as {
      awaitingMyApproval: { ref: string; proposedBy: string }[];
    };
    expect(queues.awaitingMyApproval).toMatchObject([{ ref: 'app_1', proposedBy: bob }]);
    expect(await asAlice('review', 'approve', '--kind', 'application', '--ref', 'app_1')).toMatchObject({
      code: 0,
      stdout: 'approve application app_1: ok\n',
    });

    const verify = await asBob('audit', 'verify', '--team');
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/The team history of cli-team verifies: 7 event\(s\)/);
    // Bob has not pulled Alice's approval yet: status shows the laptop one event behind.
    const status = JSON.parse((await asBob('team', 'status', '--json')).stdout) as {
      queued: number;
      conflicts: number;
      serverHead: number;
      head: { seq: number };
    };
    expect(status).toMatchObject({ queued: 0, conflicts: 1, serverHead: 7, head: { seq: 6 } });
    // Each action is in the laptop's own audit log too.
    const auditLog = JSON.parse((await asBob('audit', '--json')).stdout) as {
      rows: { action: string; target: string; result: string }[];
    };
    expect(auditLog.rows.map((row) => row.action)).toEqual(
      expect.arrayContaining(['team.join', 'team.propose', 'team.approve']),
    );
    // The keychain holds the team secrets, named by login and data folder; no file in the data folder does.
    const bobEntry = (what: string) => `team:cli-team:${bob}@${join(folder, 'bob')}:${what}`;
    expect(await bobKeychain.has(bobEntry('login'))).toBe(true);
    expect(await bobKeychain.has(bobEntry('anchor'))).toBe(true);
    for (const [service, login, data] of [
      [aliceKeychain, alice, 'alice'],
      [bobKeychain, bob, 'bob'],
    ] as const)
      for (const what of ['login', 'sign', 'box', 'anchor'])
        await service.delete(`team:cli-team:${login}@${join(folder, data)}:${what}`);
  });

  it('bad input: one line, exit 2 for usage and 1 for the rest; nothing queued', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-team-cli-'));
    const keychain = new KeyringSecretStore('Ledgerdesk test bad input');
    const run = (...argv: string[]) => ledger(['--data', folder, ...argv], keychain);
    expect(await run('review', 'propose', '--kind', 'application', '--ref', 'a')).toMatchObject({
      code: 2,
      stderr: 'ledger: `review propose` needs --disposition.\n',
    });
    expect((await run('review', 'claim', '--kind', 'application', '--ref', 'a')).stderr).toMatch(
      /not in a team: join one with `ledger team join FILE`/,
    );
    const missing = await run('team', 'join', join(folder, 'nope.invite'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/The invite .*nope\.invite cannot be read/);
    expect(
      (await run('team', 'init', 'http://x', '--ca', join(folder, 'none.crt'), '--workspace', 'w', '--officer', 'a'))
        .stderr,
    ).toMatch(/--ca: .* cannot be read/);
  });
});
