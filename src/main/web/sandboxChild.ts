/**
 * Web mode's embedded sandbox bank process: a Node child (child_process.fork) running the same
 * commands the Electron utilityProcess runs (app/sandboxCommands.ts), over Node's IPC pipe.
 */
import { serveSandboxCommands } from '../app/sandboxCommands.ts';
import type { SandboxCommand } from '../app/embeddedSandbox.ts';
import { markStart } from '../app/startTimes.ts';

markStart('sandbox-process-code-loaded');

let sending = Promise.resolve();

serveSandboxCommands({
  onCommand: (listener) => {
    process.on('message', (message) => {
      listener(message as SandboxCommand);
    });
    // The parent is gone without saying stop (killed): close the sandbox the same clean way.
    process.on('disconnect', () => {
      listener({ type: 'stop' });
    });
  },
  report: (message) => {
    const sent = new Promise<void>((resolve) => {
      if (process.send === undefined) resolve();
      else {
        process.send(message, () => {
          resolve();
        });
      }
    });
    sending = sending.then(() => sent);
  },
  // After the last report has left: `stopped` must reach the parent before this process ends.
  exit: () => {
    void sending.then(() => process.exit(0));
  },
});
// Ctrl+C reaches the whole process group: the parent stops this process with `stop`, in order.
process.on('SIGINT', () => undefined);
