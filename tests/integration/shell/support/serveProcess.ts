/**
 * TEST ONLY: web mode as a real process (`node src/main/web/serve.ts`, what `npm run serve`
 * runs from its bundle) and `ledger` as a real process, on a machine without a keychain: the
 * session bus points at nothing, as on the servers and containers the README sends to web mode.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { runNode, type ChildResult } from '../../services/support/childProcess.ts';

const SERVE = join(process.cwd(), 'src', 'main', 'web', 'serve.ts');
const LEDGER = join(process.cwd(), 'src', 'main', 'cli', 'ledger', 'ledger.ts');

/** The environment of a machine with no Secret Service; recovery keys go to `recoveryFolder`. */
export function noKeychainEnv(recoveryFolder: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/ledgerdesk-test-bus',
    LEDGERDESK_RECOVERY_KEY_FOLDER: recoveryFolder,
    LEDGERDESK_SANDBOX_LEAN: '1',
    ...extra,
  };
}

export interface RunningServe {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** The `--json` open line. */
  open: { url: string; origin: string; dataFolder: string };
  stderr: () => string;
  /**
   * Resolves once stderr has matched `pattern` (read as it comes, no timer): what is printed once
   * the services are up, which since issue 36 is after the open line, not with it.
   */
  stderrMatching(pattern: RegExp): Promise<string>;
  /** SIGTERM, then what it printed on stdout after the open line, and its exit code. */
  stop(): Promise<{ code: number | null; lines: string[] }>;
}

/** Starts web mode; resolves at its open line, or rejects with what it said when it ended first. */
export function startServe(args: string[], env: NodeJS.ProcessEnv): Promise<RunningServe> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVE, '--no-open', '--json', ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let opened = false;
    const exited = new Promise<number | null>((done) => {
      child.once('exit', (code) => {
        done(code);
      });
    });
    const waiting: { pattern: RegExp; resolve: (text: string) => void }[] = [];
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      for (const wait of waiting.splice(0)) {
        if (wait.pattern.test(stderr)) wait.resolve(stderr);
        else waiting.push(wait);
      }
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (opened) return;
      const line = stdout.split('\n').find((each) => each.includes('"event":"open"'));
      if (line === undefined) return;
      opened = true;
      resolve({
        child,
        open: JSON.parse(line) as RunningServe['open'],
        stderr: () => stderr,
        stderrMatching: (pattern) =>
          new Promise<string>((matched) => {
            if (pattern.test(stderr)) matched(stderr);
            else waiting.push({ pattern, resolve: matched });
          }),
        async stop() {
          child.kill('SIGTERM');
          const code = await exited;
          return { code, lines: stdout.split('\n').filter((each) => each !== '') };
        },
      });
    });
    void exited.then((code) => {
      if (!opened) reject(new Error(`web mode ended (${String(code)}) before it opened: ${stderr}${stdout}`));
    });
  });
}

/** Runs `serve` to its end (a refusal, or --token). */
export function runServeToEnd(args: string[], env: NodeJS.ProcessEnv): Promise<ChildResult> {
  return runNode([SERVE, ...args], { env });
}

export function runLedgerProcess(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<ChildResult> {
  return runNode([LEDGER, ...args], { env, ...(input === undefined ? {} : { input }) });
}
