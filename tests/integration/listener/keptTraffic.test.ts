/**
 * What the standalone listener kept, read back (issue 27, item 5): `npm run listen --
 * inspect|replay ID|export FILE` run as real processes on the listener's real database file,
 * and the export imported by the app (listener.importRequests through the real router and
 * services, sealed at rest, audited), all or nothing, never twice, never a secret.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';
import { openAppOverIpc, type AppOverIpc } from '../../support/app.ts';
import { isLedgerdeskError } from '../../../src/shared/ipc/errors.ts';
import { temporaryFolder } from './support.ts';

const cli = join(import.meta.dirname, '..', '..', '..', 'src', 'main', 'cli', 'listen', 'listen.ts');
const SECRET = 's3cret-kept-traffic';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('close', (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs `npm run listen` until `body` has posted to it, then stops it with Ctrl+C. */
async function listenAndPost(folder: string, body: (url: string) => Promise<void>): Promise<string> {
  const child = spawn(process.execPath, [cli, '--port', '0', '--data', folder, '--basic', `bank:${SECRET}`], {
    env: { ...process.env, NO_COLOR: '1' },
  });
  const exited = new Promise<void>((resolve) =>
    child.on('exit', () => {
      resolve();
    }),
  );
  // Waits on the listener's own word (its banner), not on a clock.
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      const found = /Listening on (\S+) /.exec(stdout)?.[1];
      if (found !== undefined) resolve(found);
    });
    child.on('exit', (code) => {
      reject(new Error(`npm run listen exited (${String(code)}) before listening`));
    });
  });
  await body(url);
  child.kill('SIGINT');
  await exited;
  return url;
}

/** A loopback port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return typeof address === 'object' && address !== null ? address.port : 0;
}

const notification = {
  event: 'ach.update',
  op: 'update',
  id: 'ach_KEPT1',
  url: 'http://127.0.0.1:1/ach/ach_KEPT1',
};

let folder: { folder: string; remove(): void };
let handler: Server;
let handlerUrl: string;
const received: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  folder = temporaryFolder();
  handler = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(202, { 'content-type': 'text/plain' }).end('handled');
    });
  });
  await new Promise<void>((resolve) => handler.listen(0, '127.0.0.1', resolve));
  const address = handler.address();
  handlerUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? String(address.port) : '0'}`;
  await listenAndPost(folder.folder, async (url) => {
    const verified = await fetch(`${url}/hooks/in?x=1`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Basic ' + Buffer.from(`bank:${SECRET}`).toString('base64'),
      },
      body: JSON.stringify(notification),
    });
    expect(verified.status).toBe(200);
    const forged = await fetch(`${url}/`, { method: 'POST', body: Buffer.from([0xff, 0xfe, 0x00, 0x41]) });
    expect(forged.status).toBe(200);
  });
});

afterAll(async () => {
  await new Promise<void>((resolve) =>
    handler.close(() => {
      resolve();
    }),
  );
  folder.remove();
});

describe('npm run listen -- inspect', () => {
  it('lists what was kept, newest first, with each id', async () => {
    const run = await runCli(['inspect', '--data', folder.folder]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toBe('2 of 2 kept requests, newest first (id, then as `npm run listen` printed it):');
    expect(lines[1]).toMatch(/^\s+2 {2}\d{4}-\d{2}-\d{2} .*missing_header .*POST \//);
    expect(lines[2]).toMatch(/^\s+1 {2}\d{4}-\d{2}-\d{2} .*ok .*ach\.update .*ach_KEPT1 .*200 .*POST \/hooks\/in/);
    const json = await runCli(['inspect', '--data', folder.folder, '--verdict', 'ok', '--json']);
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { requestId: number }).requestId),
    ).toEqual([1]);
  });

  it('shows one request in full, Authorization as its scheme only, never the secret', async () => {
    const run = await runCli(['inspect', '1', '--data', folder.folder]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('POST /hooks/in?x=1');
    expect(run.stdout).toContain('verdict ok (Basic user "bank")');
    expect(run.stdout).toMatch(/authorization: Basic \[redacted\]/i);
    expect(run.stdout).toContain(JSON.stringify(notification));
    expect(run.stdout).not.toContain(SECRET);
    expect(run.stdout).not.toContain(Buffer.from(`bank:${SECRET}`).toString('base64'));
    const binary = await runCli(['inspect', '2', '--data', folder.folder]);
    expect(binary.stdout).toContain('Body (4 bytes, not UTF-8; base64):');
    expect(binary.stdout).toContain(Buffer.from([0xff, 0xfe, 0x00, 0x41]).toString('base64'));
  });

  it('says plainly what is wrong: an unknown id, a word for an id, an unknown option, an empty data folder', async () => {
    const unknown = await runCli(['inspect', '99', '--data', folder.folder]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('there is no kept request 99');
    const word = await runCli(['inspect', 'abc', '--data', folder.folder]);
    expect(word.code).toBe(2);
    expect(word.stderr).toContain('"abc" is not a request id');
    const option = await runCli(['inspect', '--to', 'http://127.0.0.1:1', '--data', folder.folder]);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain('--to goes with replay, not inspect');
    const empty = temporaryFolder();
    try {
      const nothing = await runCli(['inspect', '--data', empty.folder]);
      expect(nothing.code).toBe(1);
      expect(nothing.stderr).toContain('nothing is kept in');
      // Reading creates nothing in a folder that had nothing.
      expect(existsSync(join(empty.folder, 'listener.sqlite'))).toBe(false);
    } finally {
      empty.remove();
    }
  });
});

describe('npm run listen -- replay', () => {
  it('sends the kept request again, body byte for byte and path under --to, signed with --basic', async () => {
    received.length = 0;
    const run = await runCli([
      'replay',
      '1',
      '--to',
      `${handlerUrl}/app`,
      '--basic',
      `bank:${SECRET}`,
      '--data',
      folder.folder,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/replay of request 1 to .*\/app\/hooks\/in\?x=1: 202 in [\d.]+ ms: handled/);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/app/hooks/in?x=1', body: JSON.stringify(notification) });
    expect(received[0]?.headers.authorization).toBe('Basic ' + Buffer.from(`bank:${SECRET}`).toString('base64'));
    expect(received[0]?.headers['x-ledgerdesk-replay-of']).toBe('1');
    // The replay is kept beside the request.
    const shown = await runCli(['inspect', '1', '--data', folder.folder]);
    expect(shown.stdout).toContain('Forwards and replays:');
    expect(shown.stdout).toMatch(/replay of request 1 to .*: 202/);
  });

  it('sends no Authorization without --basic, and refuses to sign for another host', async () => {
    received.length = 0;
    const unsigned = await runCli(['replay', '2', '--to', handlerUrl, '--data', folder.folder]);
    expect(unsigned.code).toBe(0);
    expect(received[0]?.headers.authorization).toBeUndefined();
    expect(Buffer.from(received[0]?.body ?? '', 'utf8').length).toBeGreaterThan(0);
    const remote = await runCli([
      'replay',
      '1',
      '--to',
      'https://hooks.example',
      '--basic',
      `bank:${SECRET}`,
      '--data',
      folder.folder,
    ]);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('--basic signs a replay only to a loopback address');
  });

  it('says when nothing answers, and when the id is unknown', async () => {
    const port = await closedPort();
    const closed = await runCli(['replay', '1', '--to', `http://127.0.0.1:${String(port)}`, '--data', folder.folder]);
    expect(closed.code).toBe(1);
    expect(closed.stdout).toContain(`replay of request 1 to http://127.0.0.1:${String(port)}/hooks/in?x=1: failed: `);
    expect(closed.stdout).toContain('ECONNREFUSED');
    const unknown = await runCli(['replay', '42', '--to', handlerUrl, '--data', folder.folder]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('there is no kept request 42');
    const missing = await runCli(['replay', '--data', folder.folder]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('replay needs the request');
  });
});

describe('npm run listen -- export, and the app imports it', () => {
  let app: AppOverIpc;
  let api: LedgerdeskApi;
  let exported: string;

  beforeAll(async () => {
    app = await openAppOverIpc('kept-import');
    ({ api } = app);
  });

  afterAll(() => app.close());

  it('writes every kept request as JSONL, readable by the owner only, and keeps an existing file', async () => {
    const file = join(folder.folder, 'kept.jsonl');
    const run = await runCli(['export', file, '--data', folder.folder]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Exported 2 requests to ${file}`);
    exported = readFileSync(file, 'utf8');
    const lines = exported
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; path: string });
    expect(lines.map((line) => line.path)).toEqual(['/hooks/in', '/']);
    expect(exported).not.toContain(SECRET);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await runCli(['export', file, '--data', folder.folder]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists: choose another file, or add --force');
    expect(readFileSync(file, 'utf8')).toBe(exported);
    const curl = await runCli(['export', '-', '--format', 'curl', '--verdict', 'ok', '--data', folder.folder]);
    expect(curl.stdout).toContain('-u \'bank:\'"$LEDGERDESK_BASIC_SECRET"');
    expect(curl.stdout).not.toContain(SECRET);
  });

  it('imports the export into the app, once, with bodies and verdicts as kept, and audits it', async () => {
    const first = await api.listener.importRequests({ fileName: 'kept.jsonl', text: exported });
    expect(first).toEqual({ imported: 2, alreadyKept: 0 });
    const page = await api.listener.listRequests({});
    expect(page.rows.map((row) => [row.path, row.verdict])).toEqual([
      ['/', 'missing_header'],
      ['/hooks/in', 'ok'],
    ]);
    const verified = page.rows.find((row) => row.verdict === 'ok');
    const detail = await api.listener.getRequest({ id: verified?.id ?? '' });
    expect(detail.body).toBe(JSON.stringify(notification));
    expect(detail.notification).toMatchObject(notification);
    const again = await api.listener.importRequests({ fileName: 'kept.jsonl', text: exported });
    expect(again).toEqual({ imported: 0, alreadyKept: 2 });
    expect((await api.listener.countRequests({})).count).toBe(2);
    const audit = await api.audit.list({ action: 'listener.import' });
    expect(audit.rows.every((row) => typeof row.actor === 'string' && row.actor !== '')).toBe(true);
    expect(audit.rows.map((row) => [row.target, row.result, row.message])).toEqual(
      expect.arrayContaining([
        ['kept.jsonl', 'ok', '2 imported, 0 already kept'],
        ['kept.jsonl', 'ok', '0 imported, 2 already kept'],
      ]),
    );
  });

  it('refuses a wrong file whole, naming the line, and keeps nothing of it', async () => {
    const before = (await api.listener.countRequests({})).count;
    const good = JSON.parse(exported.split('\n')[0] ?? '{}') as Record<string, unknown>;
    const cases: [string, string][] = [
      [`${JSON.stringify({ ...good, receivedAt: '2026-01-01T00:00:00.000Z' })}\nnot json\n`, 'Line 2 is not JSON'],
      [JSON.stringify({ ...good, verdict: 'trusted' }), 'Line 1: verdict'],
      [JSON.stringify({ ...good, receivedAt: undefined }), 'Line 1: receivedAt'],
      ["# request 1, received …\ncurl -sS -X 'POST'", 'is a cURL command'],
      ['\n\n', 'holds no request'],
    ];
    for (const [text, message] of cases) {
      const refused = await api.listener.importRequests({ fileName: 'bad.jsonl', text }).then(
        () => null,
        (reason: unknown) => reason,
      );
      expect(isLedgerdeskError(refused) && refused.code).toBe('invalid_input');
      expect(isLedgerdeskError(refused) && refused.message).toContain(message);
    }
    expect((await api.listener.countRequests({})).count).toBe(before);
    const audit = await api.audit.list({ action: 'listener.import', result: 'refused' });
    expect(audit.rows.length).toBe(cases.length);
  });

  it('cuts an Authorization header that carries credentials to its scheme on the way in', async () => {
    const good = JSON.parse(exported.split('\n')[0] ?? '{}') as { headers: [string, string][] } & Record<
      string,
      unknown
    >;
    const leaked = {
      ...good,
      receivedAt: '2026-02-02T00:00:00.000Z',
      headers: [
        ...good.headers.filter(([name]) => name.toLowerCase() !== 'authorization'),
        ['Authorization', 'Basic YmFuazpsZWFrZWQ='],
      ],
    };
    const file = join(app.folder, 'leaked.jsonl');
    writeFileSync(file, JSON.stringify(leaked) + '\n');
    const result = await api.listener.importRequests({ fileName: 'leaked.jsonl', text: readFileSync(file, 'utf8') });
    expect(result.imported).toBe(1);
    const rows = await api.listener.listRequests({ search: 'ach_kept1' });
    const imported = rows.rows.find((row) => row.receivedAt.startsWith('2026-02-02'));
    const detail = await api.listener.getRequest({ id: imported?.id ?? '' });
    expect(detail.headers.authorization).toMatch(/\[redacted\]$/);
    expect(JSON.stringify(detail)).not.toContain('YmFuazpsZWFrZWQ=');
  });
});
