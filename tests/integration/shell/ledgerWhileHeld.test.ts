/**
 * Issue 34 item 3, with real processes: `ledger` against a data folder that `npm run listen`
 * holds is run by the listener over its control socket (a write and a read, each answered as if
 * run here, nothing opened twice); a command that cannot be sent is refused in one sentence
 * naming the listener, its process and what to do; once the listener is killed (kill -9), its
 * stale lock is taken over and what was written is there.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listenerHeldFolder, startListener } from './support/listenerHeldFolder.ts';
import { runLedgerProcess } from './support/serveProcess.ts';

const held = listenerHeldFolder();

function ledger(args: string[], input?: string) {
  return runLedgerProcess(['--data', held.data, '--passphrase-file', held.passphrase, ...args], held.env, input);
}

describe('ledger while npm run listen holds the data folder', () => {
  it('is run by the listener, refused where it cannot be, and runs itself once the listener is killed', async () => {
    const pid = await startListener(held);
    const lock = JSON.parse(readFileSync(join(held.data, 'writer.lock'), 'utf8')) as { pid: number; shell: string };
    expect(lock).toMatchObject({ pid, shell: 'listener' });

    // A write, its secret piped in: sent to the listener, answered as if run here.
    const added = await ledger(
      ['profile', 'add', 'Staging', '--base-url', 'https://staging.bank.example', '--key-id', 'key_staging'],
      'staging-secret-value',
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/Staging/);
    // The listener made the key file in its own process: the folder had one writer.
    expect(readFileSync(join(held.data, 'keys.json'), 'utf8')).not.toContain('staging-secret-value');
    // A read, the same way.
    const listed = await ledger(['--json', 'profile', 'list']);
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { rows: { name: string }[] }).rows.map((row) => row.name)).toContain(
      'Staging',
    );
    // A read of the record, its passphrase file named by this terminal's environment only.
    const audited = await runLedgerProcess(['--data', held.data, 'audit'], {
      ...held.env,
      LEDGERDESK_PASSPHRASE_FILE: held.passphrase,
    });
    expect(audited.stderr).toBe('');
    expect(audited.stdout).toContain('profile.add');
    // A usage mistake is still told here, at once.
    expect((await ledger(['profile', 'lisst'])).code).toBe(2);

    // What must not run while the folder is open: refused, one sentence, the listener named.
    const recover = await ledger(['record', 'recover', '--recovery-key', join(held.temp.folder, 'none.txt')]);
    expect(recover.code).toBe(1);
    expect(recover.stderr).toBe(
      `ledger: the webhook listener (npm run listen) (process ${String(pid)}) is working on this data folder and ` +
        '`ledger record recover` runs only on a folder no Ledgerdesk has open (recovery puts the keys back before Ledgerdesk ' +
        'opens the folder): stop it (Ctrl+C in its terminal) and run this again.\n',
    );

    // kill -9: the lock is left behind by a process that is gone, and taken over by the next command.
    held.listener?.kill('SIGKILL');
    await new Promise((resolve) => held.listener?.once('exit', resolve));
    held.listener = null;
    const after = await ledger(['--json', 'profile', 'list']);
    expect(after.stderr).toBe('');
    expect((JSON.parse(after.stdout) as { rows: { name: string }[] }).rows.map((row) => row.name)).toContain('Staging');
  });
});
