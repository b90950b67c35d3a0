/** `npm run listen` as a real child process: its lines, its --json objects, its clean Ctrl+C. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { basicHeader, notificationOf, postNotification, send, temporaryFolder } from './support.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const cli = join(root, 'src', 'main', 'cli', 'listen', 'listen.ts');

interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  /** Lines printed so far on stdout. */
  lines: string[];
  stderr: () => string;
  /** Resolves with the next stdout line (waiting for it if need be). */
  nextLine(): Promise<string>;
  exited: Promise<number | null>;
}

const running: RunningCli[] = [];
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const { child } of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function startCli(args: string[]): RunningCli {
  const child = spawn(process.execPath, [cli, ...args], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
  const lines: string[] = [];
  let read = 0;
  let buffered = '';
  let stderr = '';
  const waiters: (() => void)[] = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    buffered += text;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderr += text;
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      for (const wake of waiters.splice(0)) wake();
      resolve(code);
    });
  });
  const result: RunningCli = {
    child,
    lines,
    stderr: () => stderr,
    async nextLine() {
      // Bounded: a line arrives, or the process ends.
      while (read >= lines.length) {
        if (child.exitCode !== null) throw new Error(`listen exited (${child.exitCode}): ${stderr}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
      read += 1;
      return lines[read - 1] as string;
    },
    exited,
  };
  running.push(result);
  return result;
}

function dataFolder(): string {
  const temporary = temporaryFolder();
  cleanups.push(() => {
    temporary.remove();
  });
  return temporary.folder;
}

describe('npm run listen', () => {
  it('prints {"listening"} then one JSON object per request, and stops cleanly on SIGINT', async () => {
    const folder = dataFolder();
    const run = startCli(['--port', '0', '--json', '--data', folder, '--basic', 'bank:s3cret']);
    const first = JSON.parse(await run.nextLine()) as { listening: string };
    expect(first.listening).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const verdicts: [Record<string, string>, string][] = [
      [{ authorization: basicHeader('bank', 's3cret') }, 'ok'],
      [{}, 'missing_header'],
      [{ authorization: 'Basic nocolon' }, 'malformed_header'],
      [{ authorization: basicHeader('other', 's3cret') }, 'wrong_user'],
      [{ authorization: basicHeader('bank', 'nope') }, 'wrong_secret'],
    ];
    for (const [headers, verdict] of verdicts) {
      const answer = await postNotification(first.listening + '/hook', notificationOf('ach_1'), headers);
      expect(answer.status).toBe(200);
      const line = JSON.parse(await run.nextLine()) as Record<string, unknown>;
      expect(line).toMatchObject({ path: '/hook', verdict, event: 'ach.update', id: 'ach_1', status: 200 });
      expect(typeof line.time).toBe('string');
      expect(typeof line.durationMs).toBe('number');
    }

    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    // Everything is on disk, secrets nowhere.
    const database = new DatabaseSync(join(folder, 'listener.sqlite'), { readOnly: true });
    try {
      const rows = database.prepare('SELECT verdict FROM listener_requests ORDER BY id').all() as { verdict: string }[];
      expect(rows.map((row) => row.verdict)).toEqual(verdicts.map(([, verdict]) => verdict));
      const everything = JSON.stringify(database.prepare('SELECT * FROM listener_settings').all());
      expect(everything).not.toContain('s3cret');
    } finally {
      database.close();
    }
  });

  it('reports not_configured without --basic, and fails on purpose with --respond and --times', async () => {
    const run = startCli(['--port', '0', '--json', '--data', dataFolder(), '--respond', '503', '--times', '2']);
    const { listening } = JSON.parse(await run.nextLine()) as { listening: string };
    const statuses: number[] = [];
    for (let index = 0; index < 3; index += 1) {
      statuses.push((await postNotification(listening + '/h', notificationOf('ach_9'))).status);
      const line = JSON.parse(await run.nextLine()) as { verdict: string; status: number };
      expect(line.verdict).toBe('not_configured');
      expect(line.status).toBe(statuses[index]);
    }
    expect(statuses).toEqual([503, 503, 200]);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
  });

  it('answers 413 over --max-body and prints the request', async () => {
    const run = startCli(['--port', '0', '--json', '--data', dataFolder(), '--max-body', '100']);
    const { listening } = JSON.parse(await run.nextLine()) as { listening: string };
    const answer = await send(listening + '/big', { body: 'x'.repeat(500) });
    expect(answer.status).toBe(413);
    expect(JSON.parse(await run.nextLine())).toMatchObject({ path: '/big', status: 413, outcome: 'too_large' });
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
  });

  it('prints a human line per request without --json, and remembers the port across runs', async () => {
    const folder = dataFolder();
    const first = startCli(['--port', '0', '--data', folder]);
    const banner = await first.nextLine();
    expect(banner).toMatch(/^Listening on http:\/\/127\.0\.0\.1:\d+ \(any path; no Basic credentials expected/);
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);

    // A fixed port this time: find a free one, then let the listener have it.
    const probe: Server = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    const second = startCli(['--port', String(port), '--data', folder]);
    expect(await second.nextLine()).toContain(`http://127.0.0.1:${port} `);
    await postNotification(`http://127.0.0.1:${port}/hook`, notificationOf('ach_3'));
    const line = await second.nextLine();
    expect(line).toMatch(/not_configured\s+ach\.update\s+ach_3\s+200\s+\d+\.\d ms\s+POST \/hook/);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);

    // No --port: the remembered one.
    const third = startCli(['--data', folder]);
    expect(await third.nextLine()).toContain(`http://127.0.0.1:${port} `);
    third.child.kill('SIGINT');
    expect(await third.exited).toBe(0);
  });

  it('says the port is taken and offers the next free one', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => blocker.close());
    const port = (blocker.address() as { port: number }).port;
    const run = startCli(['--port', String(port), '--data', dataFolder()]);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toMatch(new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use.*--port \\d+`));
  });

  it('explains a mistake on the command line', async () => {
    const run = startCli(['--times', '3']);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toContain('--times needs --respond');
    expect(run.stderr()).toContain('Usage: npm run listen');
  });
});
