/**
 * Entry of out/main/sandbox.js: the embedded sandbox bank in an Electron utilityProcess,
 * speaking to the main process through its parentPort (src/main/app/sandboxCommands.ts).
 */
import { serveSandboxCommands } from '../app/sandboxCommands.ts';
import type { SandboxCommand } from '../app/embeddedSandbox.ts';

const port = process.parentPort;

serveSandboxCommands({
  onCommand: (listener) => {
    port.on('message', (event: { data: unknown }) => {
      listener(event.data as SandboxCommand);
    });
  },
  report: (message) => {
    port.postMessage(message);
  },
  exit: () => process.exit(0),
});
