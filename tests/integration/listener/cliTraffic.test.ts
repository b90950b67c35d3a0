/**
 * What `npm run listen` shows (issue 27): each refused request (wrong Host, a web page's) as
 * one line with the option that would allow it, and nothing of it kept; a refused body (413)
 * with the option that allows more; `--print-body` under each request; --json objects.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, notificationOf, send, temporaryFolder } from './support.ts';

const cli = join(import.meta.dirname, '..', '..', '..', 'src', 'main', 'cli', 'listen', 'listen.ts');
const cleanups: (() => void)[] = [];

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function runListen(args: string[]): Promise<{
  url: string;
  folder: string;
  lines: string[];
  stop: () => Promise<void>;
}> {
  const temporary = temporaryFolder();
  cleanups.push(() => {
    temporary.remove();
  });
  const child = spawn(process.execPath, [cli, '--port', '0', '--data', temporary.folder, ...args], {
    env: { ...process.env, NO_COLOR: '1' },
  });
  cleanups.push(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const lines: string[] = [];
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    pending += text;
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    lines.push(...parts);
  });
  const exited = new Promise<void>((resolve) => {
    child.on('exit', () => {
      resolve();
    });
  });
  await eventually(() => lines.length > 0 || child.exitCode !== null);
  const first = lines[0] ?? '';
  const url = args.includes('--json')
    ? ((JSON.parse(first) as { listening?: string }).listening ?? '')
    : (/Listening on (\S+) /.exec(first)?.[1] ?? '');
  return {
    url,
    folder: temporary.folder,
    lines,
    async stop() {
      child.kill('SIGINT');
      await exited;
    },
  };
}

function keptRequests(folder: string): number {
  const database = new DatabaseSync(join(folder, 'listener.sqlite'), { readOnly: true });
  try {
    return (database.prepare('SELECT count(*) AS n FROM listener_requests').get() as { n: number }).n;
  } finally {
    database.close();
  }
}

describe('npm run listen shows what it refuses', () => {
  it('prints a wrong Host and a web page’s request with the option that allows them, and keeps neither', async () => {
    const listen = await runListen(['--max-body', '100']);
    const port = new URL(listen.url).port;
    const tunnel = await send(`${listen.url}/`, {
      headers: { host: 'tunnel.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(tunnel.status).toBe(421);
    await eventually(() => listen.lines.some((line) => line.includes('refused 421')));
    const page = await send(`${listen.url}/`, {
      headers: { origin: 'http://evil.test', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(page.status).toBe(403);
    const big = await send(`${listen.url}/`, {
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(500),
    });
    expect(big.status).toBe(413);
    await eventually(() => listen.lines.length >= 4);
    await listen.stop();
    expect(listen.lines[1]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} {2}refused 421 {2}Host tunnel\.example is not allowed: add --allow-host tunnel\.example \(not kept\)$/,
    );
    expect(listen.lines[2]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} {2}refused 403 {2}A web page at http:\/\/evil\.test made it: add --allow-origin http:\/\/evil\.test \(not kept\)$/,
    );
    expect(listen.lines[3]).toMatch(/ 413 .*\(.*too large: allow more with --max-body BYTES.*\)$/);
    // Only the 413 is a request the listener read (and keeps, with its outcome); the refused ones are not.
    expect(keptRequests(listen.folder)).toBe(1);
    expect(port).not.toBe('');
  });

  it('--json prints the refusal as an object; --print-body prints each body under its line', async () => {
    const listen = await runListen(['--json', '--print-body']);
    await send(`${listen.url}/`, { headers: { host: 'tunnel.example:8443' }, body: '' });
    const body = JSON.stringify(notificationOf('ach_body'));
    await send(`${listen.url}/in`, { headers: { 'content-type': 'application/json' }, body });
    await eventually(() => listen.lines.length >= 4);
    await listen.stop();
    const objects = listen.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(objects[1]).toEqual({
      refused: {
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
        status: 421,
        reason: 'Host tunnel.example:8443 is not allowed',
        remedy: '--allow-host tunnel.example:8443',
      },
    });
    expect(objects[2]).toMatchObject({ path: '/in', status: 200, label: { kind: 'new_event', attempt: 1 } });
    expect(objects[3]).toEqual({
      body: { requestId: objects[2]?.requestId, text: body, base64: null, truncated: false },
    });
  });

  it('--print-body in text indents the body and shows control characters as ?', async () => {
    const listen = await runListen(['--print-body']);
    await send(`${listen.url}/`, { headers: { 'content-type': 'text/plain' }, body: 'line one\nline \u001b[31mtwo' });
    await eventually(() => listen.lines.length >= 4);
    await listen.stop();
    expect(listen.lines.slice(2, 4)).toEqual(['    line one', '    line ?[31mtwo']);
  });
});
