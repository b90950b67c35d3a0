/**
 * The embedded sandbox bank's own process, whichever shell forked it: it answers the parent's
 * `start` with `ready` (or `failed`), and on `stop` lets deliveries in flight finish, closes its
 * database (pending retries stay in the data file), says `stopped` and exits. The Electron
 * shell runs it in a utilityProcess (sandboxProcess.ts), web mode in a Node child process
 * (web/sandboxChild.ts); only the pipe differs.
 */
import { startSandbox, type RunningSandbox } from '../../sandbox/index.ts';
import type { SandboxCommand, SandboxReport } from './embeddedSandbox.ts';
import { markStart } from './startTimes.ts';

export interface ParentPipe {
  onCommand(listener: (command: SandboxCommand) => void): void;
  report(message: SandboxReport): void;
  exit(): void;
}

export function serveSandboxCommands(pipe: ParentPipe): void {
  let running: RunningSandbox | null = null;
  pipe.onCommand((command) => {
    if (command.type === 'start' && running === null) {
      markStart('sandbox-start-asked');
      startSandbox({
        port: 0,
        dataFile: command.dataFile,
        keyId: command.keyId,
        keySecret: command.keySecret,
        lean: command.lean === true,
      })
        .then((sandbox) => {
          markStart('sandbox-bank-listening');
          running = sandbox;
          pipe.report({ type: 'ready', baseUrl: sandbox.baseUrl, keyId: sandbox.keyId, keySecret: sandbox.keySecret });
        })
        .catch((error: unknown) => {
          pipe.report({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
        });
    } else if (command.type === 'stop') {
      const closing = running === null ? Promise.resolve() : running.close();
      void closing.finally(() => {
        pipe.report({ type: 'stopped' });
        pipe.exit();
      });
    }
  });
}
