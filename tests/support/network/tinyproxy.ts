/**
 * A real CONNECT proxy for tests: Debian's tinyproxy (/usr/bin/tinyproxy), in the
 * foreground, with a config file of its own in a temp dir, on a free 127.0.0.1 port, with
 * Basic authentication when asked. Its log (LogLevel Info: every connection and request line
 * it reads) is what a test reads to prove what the proxy saw.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, untilListening } from './freePort.ts';

export const TINYPROXY = '/usr/bin/tinyproxy';

export interface RunningTinyproxy {
  port: number;
  /** http://127.0.0.1:PORT */
  url: string;
  /** Everything tinyproxy logged so far. */
  log(): string;
  /** The request lines it read (`CONNECT 127.0.0.1:1234 HTTP/1.1`, `GET http://… HTTP/1.1`). */
  requestLines(): string[];
  stop(): Promise<void>;
}

export async function startTinyproxy(options: { user?: string; password?: string } = {}): Promise<RunningTinyproxy> {
  if (/\s/.test(options.password ?? '') || /\s/.test(options.user ?? '')) {
    throw new Error('tinyproxy reads BasicAuth USER PASSWORD as words: no spaces in either.');
  }
  if (!existsSync(TINYPROXY)) throw new Error(`${TINYPROXY} is missing: apt-get install tinyproxy-bin (.ci/run does).`);
  const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-tinyproxy-'));
  const port = await freePort();
  const logFile = join(folder, 'tinyproxy.log');
  const lines = [
    `Port ${String(port)}`,
    'Listen 127.0.0.1',
    'Timeout 60',
    `LogFile "${logFile}"`,
    'LogLevel Info',
    'MaxClients 64',
    ...(options.user === undefined ? [] : [`BasicAuth ${options.user} ${options.password ?? ''}`]),
  ];
  const config = join(folder, 'tinyproxy.conf');
  writeFileSync(config, `${lines.join('\n')}\n`);
  const child: ChildProcess = spawn(TINYPROXY, ['-d', '-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let exited = false;
  let said = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
  child.once('exit', () => {
    exited = true;
  });
  try {
    await untilListening(port, 'tinyproxy', 200, () => exited);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`${error instanceof Error ? error.message : String(error)}: ${said}`, { cause: error });
  }
  const log = (): string => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
  return {
    port,
    url: `http://127.0.0.1:${String(port)}`,
    log,
    requestLines: () =>
      log()
        .split('\n')
        .flatMap((line) => {
          const match = /Request \(file descriptor \d+\): (.*)$/.exec(line);
          return match?.[1] === undefined ? [] : [match[1]];
        }),
    stop: async () => {
      if (!exited) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
