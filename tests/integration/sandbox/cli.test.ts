/** `npm run sandbox`: the --json line, the human banner, flags, persistence and a clean stop on SIGINT/SIGTERM. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { basicOf, request } from './sandboxClient.ts';

const CLI = join(import.meta.dirname, '../../../src/sandbox/cli.ts');
const folder = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

interface Started {
  child: ChildProcessWithoutNullStreams;
  firstLines: string[];
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts the CLI and waits for its first `lines` lines of output (bounded by the child's own life). */
function startCli(args: string[], lines: number): Promise<Started> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      resolve(code);
    }),
  );
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const complete = stdout.split('\n').slice(0, -1);
      if (complete.length >= lines) resolve({ child, firstLines: complete, output: () => stdout, exited });
    });
    void exited.then((code) => {
      reject(new Error(`sandbox CLI exited (${String(code)}) early: ${stderr}`));
    });
  });
}

describe('sandbox CLI', () => {
  it('prints one JSON line with --json, serves it, and stops cleanly on SIGTERM', async () => {
    const started = await startCli(
      ['--port', '0', '--json', '--seed', '3', '--key-id', 'cli_key', '--key-secret', 'cli_secret_123'],
      1,
    );
    const line = JSON.parse(started.firstLines[0] ?? '') as Record<string, unknown>;
    expect(Object.keys(line).sort()).toEqual(
      [
        'accountApplications',
        'accounts',
        'baseUrl',
        'bearerToken',
        'cardProducts',
        'files',
        'keyId',
        'keySecret',
        'lean',
      ].sort(),
    );
    expect(line.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
    expect(line).toMatchObject({ keyId: 'cli_key', keySecret: 'cli_secret_123', lean: false });
    const baseUrl = String(line.baseUrl);
    const accounts = await request(`${baseUrl}/account`, {
      headers: { authorization: basicOf('cli_key', 'cli_secret_123') },
    });
    expect(accounts.status).toBe(200);
    const withToken = await request(`${baseUrl}/account`, {
      headers: { authorization: `Bearer ${String(line.bearerToken)}` },
    });
    expect(withToken.status).toBe(200);
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
  });

  it('prints the address, its own random key and demo ids, keeps both in its data file, and stops cleanly on SIGINT', async () => {
    const dataFile = join(folder, 'cli.db');
    const first = await startCli(['--port', '0', '--data', dataFile, '--smart-retries', 'off'], 5);
    expect(first.firstLines[0]).toMatch(/^Sandbox listening on http:\/\/127\.0\.0\.1:[0-9]+$/);
    const keyId = /API key id: +(key_sandbox_[0-9a-f]{12})\n/.exec(first.output())?.[1];
    const secret = /API key secret: +([A-Za-z0-9_-]{32})\n/.exec(first.output())?.[1];
    expect(keyId).toBeDefined();
    expect(secret).toBeDefined();
    expect(first.output()).toMatch(/Accounts: +acct_/);
    // The printed key is the one the bank answers to.
    const baseUrl = (first.firstLines[0] ?? '').replace('Sandbox listening on ', '');
    const accounts = await request(`${baseUrl}/account`, {
      headers: { authorization: basicOf(keyId ?? '', secret ?? '') },
    });
    expect(accounts.status).toBe(200);
    const accountLine = first.firstLines.find((entry) => entry.startsWith('Accounts:')) ?? '';
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);

    const second = await startCli(['--port', '0', '--data', dataFile, '--seed', '99'], 5);
    // An existing data file keeps its bank: the seed does not apply again, and the key is the same.
    expect(second.firstLines.find((entry) => entry.startsWith('Accounts:'))).toBe(accountLine);
    expect(second.output()).toContain(`API key id:     ${keyId ?? ''}\n`);
    expect(second.output()).toContain(`API key secret: ${secret ?? ''}\n`);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('makes a new random key each run on :memory:, printed on the --json line', async () => {
    const keys: string[] = [];
    for (let run = 0; run < 2; run += 1) {
      const started = await startCli(['--port', '0', '--json', '--pending-per-account', '1'], 1);
      const line = JSON.parse(started.firstLines[0] ?? '') as { baseUrl: string; keyId: string; keySecret: string };
      expect(line.keyId).toMatch(/^key_sandbox_[0-9a-f]{12}$/);
      expect(line.keySecret).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const accounts = await request(`${line.baseUrl}/account`, {
        headers: { authorization: basicOf(line.keyId, line.keySecret) },
      });
      expect(accounts.status).toBe(200);
      keys.push(`${line.keyId}:${line.keySecret}`);
      started.child.kill('SIGTERM');
      expect(await started.exited).toBe(0);
    }
    expect(new Set(keys).size).toBe(2);
  });

  it('refuses --key-id without --key-secret, and a bad --allow-host, with usage', async () => {
    for (const args of [
      ['--key-id', 'only_the_id'],
      ['--allow-host', 'https://x.example/'],
    ]) {
      const child = spawn(process.execPath, [CLI, ...args], { stdio: 'pipe' });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(2);
      expect(stderr).toMatch(
        /--key-id and --key-secret go together|--allow-host: "https:\/\/x\.example\/" is not a host name/,
      );
      expect(stderr).toMatch(/Usage: npm run sandbox/);
    }
  });

  it('does not echo a secret given on the command line in the banner', async () => {
    const started = await startCli(['--key-id', 'k1', '--key-secret', 'do-not-print-me'], 3);
    expect(started.output()).not.toContain('do-not-print-me');
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
  });

  it('exits 2 with usage on a bad flag', async () => {
    const child = spawn(process.execPath, [CLI, '--port', 'abc'], { stdio: 'pipe' });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(/--port takes a whole number/);
    expect(stderr).toMatch(/Usage: npm run sandbox/);
  });
});
