/**
 * `ledger screening import FILE` while `npm run listen` holds the data folder, with real
 * processes: the command is run by the listener (which has its own working folder), so the
 * FILE given relative to this terminal is made absolute before it is sent; the listener reads
 * the file this terminal meant, and the list is there.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNode } from '../services/support/childProcess.ts';
import { listenerHeldFolder, startListener } from './support/listenerHeldFolder.ts';

const LEDGER = join(process.cwd(), 'src', 'main', 'cli', 'ledger', 'ledger.ts');
const FIXTURES = join(process.cwd(), 'tests', 'fixtures', 'screening');
const held = listenerHeldFolder();

function ledgerIn(cwd: string, args: string[]) {
  return runNode([LEDGER, '--data', held.data, '--passphrase-file', held.passphrase, ...args], { env: held.env, cwd });
}

describe('ledger screening import while npm run listen holds the data folder', () => {
  it('sends the file as this terminal named it, made absolute, and the listener imports it', async () => {
    await startListener(held);
    const imported = await ledgerIn(FIXTURES, ['screening', 'import', 'SDN.XML']);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/^Imported OFAC SDN of 2025-03-14 \(sha256 [0-9a-f]{12}…\): 4 entries/);
    const lists = await ledgerIn(held.temp.folder, ['--json', 'screening', 'lists']);
    expect(lists.code).toBe(0);
    expect((JSON.parse(lists.stdout) as { lists: { source: string }[] }).lists.map((list) => list.source)).toEqual([
      'ofac-sdn',
    ]);
  });
});
