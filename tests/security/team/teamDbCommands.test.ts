/**
 * `npm run team-db` (security review of af86022, I-T2; issue 38): it printed the admin URL with
 * its password and suggested passing it on a command line (readable by every local user in
 * /proc/PID/cmdline), and it printed `--data-folder` where `ledger` takes `--data`. Now the
 * password is in a file only its owner reads, never printed, and the commands it prints are run
 * here exactly as printed: the lead's `team init` and an officer's `team join`, two officers on
 * one keychain, each keeping their own keys. Then Ctrl+C stops the cluster and deletes it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { ledger } from '../../integration/services/support/ledgerRun.ts';

/** The words of one printed command line, as a POSIX shell splits them (single quotes only). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const pattern = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (const match of line.matchAll(pattern))
    words.push(match[1] === undefined ? (match[2] ?? '') : match[1].replaceAll("'\\''", "'"));
  return words;
}

let child: ChildProcess | null = null;
afterAll(() => {
  if (child?.pid !== undefined && child.exitCode === null) child.kill('SIGINT');
});

describe('npm run team-db', () => {
  it('keeps the admin password off the screen and off command lines, and prints commands that work', async () => {
    const started = spawn(process.execPath, [resolve(import.meta.dirname, '../../../scripts/team-db.ts')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    await new Promise<void>((done, fail) => {
      started.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ctrl+C stops the cluster')) done();
      });
      started.once('exit', (code) => {
        fail(new Error(`team-db exited (${String(code)}) before it was ready: ${output}`));
      });
    });
    const passwordFile = /Admin password: in (\S+) \(mode 0600/.exec(output)?.[1] ?? '';
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
    const password = readFileSync(passwordFile, 'utf8').trim();
    expect(password.length).toBeGreaterThan(10);
    expect(output).not.toContain(password);
    expect(output).not.toContain('--data-folder');

    const commands = output
      .split('\n')
      .filter((line) => line.startsWith('  npm run ledger -- '))
      .map((line) => shellWords(line.slice('  npm run ledger -- '.length)));
    expect(commands.map((words) => words.slice(2, 4))).toEqual([
      ['team', 'init'],
      ['team', 'join'],
    ]);
    for (const words of commands) expect(words.join(' ')).not.toContain(password);
    // One keychain for both officers, as on one machine: each keeps their own entries.
    const keychain = new InMemorySecretStore();
    const [init, join] = commands as [string[], string[]];
    const initialized = await ledger(init, keychain);
    expect(initialized).toMatchObject({ code: 0 });
    expect(initialized.stdout).toContain('Team demo is ready');
    const joined = await ledger(join, keychain);
    expect(joined).toMatchObject({ code: 0 });
    expect(joined.stdout).toContain('Joined demo as bob (officer)');
    for (const [data, login] of [
      [init[1] ?? '', 'alice'],
      [join[1] ?? '', 'bob'],
    ] as const) {
      const status = await ledger(['--data', data, 'team', 'status', '--json'], keychain);
      expect(status.code).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ login, problem: null, membershipSigned: true });
    }

    started.kill('SIGINT');
    await new Promise((done) => started.once('exit', done));
    expect(existsSync(passwordFile)).toBe(false);
  });
});
