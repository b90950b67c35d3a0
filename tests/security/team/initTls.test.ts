/**
 * T3 of the security review of af86022 (team-attacks.ts, block T1), against the test cluster
 * (TLS only, its own CA): `team init` with a CA that did not sign the server's certificate must
 * be refused whatever the admin URL's query says. At af86022, `?sslmode=no-verify` and
 * `?uselibpqcompat=true&sslmode=require` made init succeed, and `?sslmode=disable` / `?ssl=0`
 * made it try plain text. Now the URL never reaches the driver: host, port, database and user are
 * taken from it, and a query parameter touching TLS or the host is refused before connecting,
 * with the CA given by --ca always deciding (PGSSLMODE in the environment included).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { teamInit } from '../../../src/main/services/team/teamInit.ts';
import {
  createTestDatabase,
  openCacheDatabase,
  uniqueLogin,
  type TestDatabase,
} from '../../support/team/teamDatabase.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});

function init(adminUrl: string, caPem: string, workspace: string) {
  const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-init-'));
  return teamInit({
    adminUrl,
    caPem,
    workspace,
    officers: [uniqueLogin('lead')],
    outFolder: folder,
    laptop: { dataFolder: folder, secretStore: new InMemorySecretStore(), database: openCacheDatabase(folder) },
  });
}

async function workspaces(): Promise<string[]> {
  const admin = await db.admin();
  try {
    const rows = await admin.query<{ workspace: string }>('SELECT workspace FROM team.workspaces ORDER BY 1');
    return rows.rows.map((row) => row.workspace);
  } finally {
    await admin.end();
  }
}

const SUFFIXES = [
  ['?sslmode=no-verify', 'sslmode'],
  ['?uselibpqcompat=true&sslmode=require', 'uselibpqcompat", "sslmode'],
  ['?sslmode=require', 'sslmode'],
  ['?sslmode=verify-full', 'sslmode'],
  ['?sslmode=disable', 'sslmode'],
  ['?ssl=0', 'ssl'],
  ['?ssl=true', 'ssl'],
  ['?sslrootcert=system', 'sslrootcert'],
  ['?sslcert=/tmp/x.crt&sslkey=/tmp/x.key', 'sslcert", "sslkey'],
  ['?host=127.0.0.2', 'host'],
  ['?hostaddr=127.0.0.2', 'hostaddr'],
  ['?port=1', 'port'],
  ['?SSLMODE=disable', 'sslmode'],
  ['?options=-csearch_path%3Devil', 'options'],
] as const;

describe('T3: the admin URL cannot overrule --ca', () => {
  const saved = process.env['PGSSLMODE'];
  afterEach(() => {
    if (saved === undefined) delete process.env['PGSSLMODE'];
    else process.env['PGSSLMODE'] = saved;
  });

  it('the control: an unrelated CA is refused by the TLS handshake', async () => {
    await expect(init(db.adminUrl, db.cluster.otherCaPem, 'sec-t3-control')).rejects.toMatchObject({
      kind: 'untrusted-server',
      message: expect.stringContaining('its certificate is refused') as unknown,
    });
  });

  it.each(SUFFIXES)(
    '%s is refused before connecting, with an unrelated CA and with the right one',
    async (suffix, named) => {
      for (const caPem of [db.cluster.otherCaPem, db.cluster.caPem]) {
        const refused = init(`${db.adminUrl}${suffix}`, caPem, 'sec-t3-query');
        await expect(refused).rejects.toMatchObject({
          kind: 'invalid',
          message: expect.stringContaining(`The PostgreSQL URL sets "${named}"`) as unknown,
        });
        await expect(refused).rejects.toMatchObject({
          message: expect.stringContaining('trusts only the CA given with --ca (verify-full)') as unknown,
        });
      }
      expect(await workspaces()).not.toContain('sec-t3-query');
    },
  );

  it('any other query parameter, a list of hosts or a socket folder is refused too', async () => {
    await expect(init(`${db.adminUrl}?application_name=x`, db.cluster.caPem, 'sec-t3-other')).rejects.toThrow(
      /query parameters \("application_name"\) team init does not take/,
    );
    const hostless = db.adminUrl.replace('127.0.0.1', '127.0.0.1,127.0.0.2');
    await expect(init(hostless, db.cluster.caPem, 'sec-t3-other')).rejects.toThrow(/one host by name or address/);
    const socket = db.adminUrl.replace('127.0.0.1', '%2Ftmp');
    await expect(init(socket, db.cluster.caPem, 'sec-t3-other')).rejects.toThrow(/one host by name or address/);
    expect(await workspaces()).not.toContain('sec-t3-other');
  });

  it('PGSSLMODE in the environment changes nothing: --ca decides', async () => {
    for (const mode of ['disable', 'no-verify', 'require']) {
      process.env['PGSSLMODE'] = mode;
      await expect(init(db.adminUrl, db.cluster.otherCaPem, 'sec-t3-env')).rejects.toMatchObject({
        kind: 'untrusted-server',
      });
    }
    process.env['PGSSLMODE'] = 'disable';
    // The right CA, over TLS (the cluster takes nothing else): init works.
    const made = await init(db.adminUrl, db.cluster.caPem, 'sec-t3-env');
    expect(made.workspace).toBe('sec-t3-env');
  });
});
