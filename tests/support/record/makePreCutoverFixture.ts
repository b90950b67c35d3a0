/**
 * Writes tests/fixtures/record-before-cutover: a data folder as a build from before the record
 * cut-over (issue 34) leaves it, its reviews, notes, history, watch rule, reviewer name and audit
 * log inside cache.db, record.sqlite beside it and unused for them. It must run against that
 * build's code, never this one's (see the fixture's README):
 *
 *   node tests/support/record/makePreCutoverFixture.ts <old build's source root> <out folder> <its commit>
 *
 * The keychain is an in-memory one whose entries are written to keychain.json (test keys only,
 * made for the fixture), and what the tests expect to find is written to expected.json.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [rootArgument, outArgument, madeBy] = process.argv.slice(2);
if (rootArgument === undefined || outArgument === undefined || madeBy === undefined) {
  throw new Error('usage: makePreCutoverFixture.ts <source root> <out folder> <commit the source is>');
}
const root = resolve(rootArgument);
const out = resolve(outArgument);

const { startSandbox } = (await import(
  join(root, 'src/sandbox/index.ts')
)) as typeof import('../../../src/sandbox/index.ts');
const { LedgerServices } = (await import(
  join(root, 'src/main/services/ledgerServices.ts')
)) as typeof import('../../../src/main/services/ledgerServices.ts');
const { FileProfileStorage } = (await import(
  join(root, 'src/main/services/profiles/fileProfileStorage.ts')
)) as typeof import('../../../src/main/services/profiles/fileProfileStorage.ts');

/** An in-memory keychain whose entries can be written out. */
class DumpedSecrets {
  readonly entries = new Map<string, string>();
  get(account: string): Promise<string | null> {
    return Promise.resolve(this.entries.get(account) ?? null);
  }
  set(account: string, secret: string): Promise<void> {
    this.entries.set(account, secret);
    return Promise.resolve();
  }
  delete(account: string): Promise<boolean> {
    return Promise.resolve(this.entries.delete(account));
  }
  has(account: string): Promise<boolean> {
    return Promise.resolve(this.entries.has(account));
  }
}

const sandbox = await startSandbox({
  port: 0,
  dataFile: ':memory:',
  retryBaseMs: 20,
  accounts: 1,
  pendingTransactionsPerAccount: 30,
});
const work = mkdtempSync(join(tmpdir(), 'ledgerdesk-fixture-'));
const folder = join(work, 'data');
const secrets = new DumpedSecrets();
try {
  const services = await LedgerServices.open({
    dataFolder: folder,
    secretStore: secrets,
    profileStorage: new FileProfileStorage(folder),
    cacheWriter: 'inline',
  });
  const profile = await services.addProfile(
    { name: 'Sandbox', baseUrl: sandbox.baseUrl, authScheme: 'basic', keyId: sandbox.keyId, production: false },
    sandbox.keySecret,
  );
  const accountId = sandbox.demo.accounts[0] ?? '';
  const sync = async () => {
    const outcome = await services.sync.start({ kind: 'pending-transactions', profileId: profile.id, accountId }).done;
    if (outcome.state !== 'done') throw new Error(`sync: ${outcome.state}`);
  };
  await sync();
  services.reviews.setReviewer('Fixture Officer');
  const refs = (
    services.cache.database.prepare('SELECT row_key FROM pending_transactions ORDER BY id LIMIT 6').all() as {
      row_key: string;
    }[]
  ).map((row) => row.row_key);
  const give = (some: string[], disposition: 'cleared' | 'flagged' | 'escalated', note: string) =>
    services.reviews.give({ profileId: profile.id, kind: 'pending-transaction', refs: some, disposition, note });
  give(refs.slice(0, 3), 'cleared', 'seen with the customer');
  give(refs.slice(3, 5), 'escalated', 'sent to the MLRO');
  give(refs.slice(5), 'flagged', 'odd merchant');
  // A second step of history on one of them.
  give(refs.slice(0, 1), 'escalated', 'second look: escalated');
  services.reviews.saveRule(profile.id, {
    name: 'Debits beyond 150',
    kind: 'pending-transaction',
    amountBeyond: '-150.00',
  });
  await sync();
  const reviews = services.reviews.list({ profileId: profile.id }).rows.map((row) => {
    const detail = services.reviews.detail(profile.id, 'pending-transaction', row.ref);
    return {
      ref: row.ref,
      state: detail.review?.state,
      note: detail.review?.note ?? null,
      steps: detail.history.length,
    };
  });
  const rules = services.reviews.rules.list(profile.id).map((rule) => rule.name);
  await services.close();
  mkdirSync(out, { recursive: true });
  // Builds before the record's own file (af86022 and earlier) have no record.sqlite.
  for (const name of ['cache.db', 'record.sqlite', 'config.json']) {
    if (existsSync(join(folder, name))) copyFileSync(join(folder, name), join(out, name));
  }
  writeFileSync(join(out, 'keychain.json'), `${JSON.stringify(Object.fromEntries(secrets.entries), null, 2)}\n`);
  writeFileSync(
    join(out, 'expected.json'),
    `${JSON.stringify({ madeBy, profileId: profile.id, reviews: reviews.sort((a, b) => a.ref.localeCompare(b.ref)), rules, reviewer: 'Fixture Officer' }, null, 2)}\n`,
  );
} finally {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
}
