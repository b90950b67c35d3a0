/**
 * "Who did it" (issue 23): every audit entry names its actor (the app instance or the `ledger`
 * command line, the OS user, the reviewer), chained with the entry so it cannot be edited
 * afterwards. Real cache file and Secret Service; the app through the real IPC router, the
 * command line through runLedger.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import { osUserName } from '../../src/main/services/review/reviewer.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { ledger } from '../integration/services/support/ledgerRun.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';
import { startHarness } from './support/harness.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

describe.skipIf(!secretServiceHere)('every audit entry names who acted', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-actor-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-actor-');
    sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 2 });
  });

  afterAll(async () => {
    await sandbox.close();
    temp.remove();
  });

  function actors(): { action: string; actor: string | null }[] {
    const raw = new DatabaseSync(join(temp.folder, 'record.sqlite'), { readOnly: true });
    const rows = raw.prepare('SELECT action, actor FROM audit_log ORDER BY id').all() as {
      action: string;
      actor: string | null;
    }[];
    raw.close();
    return rows;
  }

  it('the app, the command line, the OS user and the reviewer; an edited actor breaks the chain', async () => {
    const harness = await startHarness(temp.folder, sandbox, store);
    try {
      await harness.api.reviews.setReviewer({ name: 'A. Officer' });
      await harness.api.profiles.create({ name: 'Remote bank', baseUrl: 'https://bank.example', authScheme: 'bearer' });
    } finally {
      await harness.stop();
    }
    const added = await ledger(
      ['--data', temp.folder, 'profile', 'add', 'Sandbox', '--base-url', sandbox.baseUrl, '--key-id', sandbox.keyId],
      store,
      sandbox.keySecret + '\n',
    );
    expect(added.code).toBe(0);
    const rows = actors();
    const byApp = rows.find((row) => row.action === 'profile.add' && row.actor?.startsWith('app instance'));
    expect(byApp?.actor).toMatch(
      new RegExp(`^app instance \\d+-[0-9a-f]{8}; OS user ${osUserName()}; reviewer #[0-9a-f]{12}$`),
    );
    // The reviewer by the log's keyed reference, never by name; the same reviewer, the same reference.
    expect(rows.some((row) => row.actor?.includes('A. Officer'))).toBe(false);
    const byCli = rows.filter((row) => row.actor?.startsWith('ledger command line'));
    const refOf = (actor: string | null | undefined) => actor?.split('; reviewer ')[1];
    // The command line names the same reviewer (kept in the same cache) by the same reference.
    expect(new Set(byCli.map((row) => refOf(row.actor)))).toEqual(new Set([refOf(byApp?.actor)]));
    expect(byCli.map((row) => row.action)).toContain('profile.add');
    expect(rows.every((row) => row.actor !== null)).toBe(true);
    expect((await ledger(['--data', temp.folder, 'audit', 'verify'], store)).code).toBe(0);

    const raw = new DatabaseSync(join(temp.folder, 'record.sqlite'));
    raw.exec('DROP TRIGGER IF EXISTS audit_log_no_update');
    raw
      .prepare(
        "UPDATE audit_log SET actor = 'app instance 1-00000000; OS user someone-else; reviewer B' WHERE actor LIKE 'app instance%'",
      )
      .run();
    raw.close();
    const verified = await ledger(['--data', temp.folder, 'audit', 'verify', '--json'], store);
    expect(verified.code).toBe(1);
    expect((JSON.parse(verified.stdout) as { problem: { kind: string } }).problem.kind).toBe('entry-changed');
  });
});
