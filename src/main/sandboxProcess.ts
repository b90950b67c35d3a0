/**
 * Entry of out/main/sandbox.js: the embedded sandbox bank in an Electron utilityProcess.
 * The main process sends `start` with the data file and the key (from the keychain); this
 * answers `ready` with the address and that key, and closes the sandbox cleanly on `stop` (deliveries in flight finish,
 * pending retries stay in the data file).
 */
import { startSandbox, type RunningSandbox } from '../sandbox/index.ts';
import type { SandboxCommand, SandboxReport } from './shell/embeddedSandbox.ts';

const port = process.parentPort;
let running: RunningSandbox | null = null;

function report(message: SandboxReport): void {
  port.postMessage(message);
}

port.on('message', (event: { data: unknown }) => {
  const command = event.data as SandboxCommand;
  if (command.type === 'start' && running === null) {
    startSandbox({
      port: 0,
      dataFile: command.dataFile,
      keyId: command.keyId,
      keySecret: command.keySecret,
      lean: command.lean === true,
    })
      .then((sandbox) => {
        running = sandbox;
        report({ type: 'ready', baseUrl: sandbox.baseUrl, keyId: sandbox.keyId, keySecret: sandbox.keySecret });
      })
      .catch((error: unknown) => {
        report({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
      });
  } else if (command.type === 'stop') {
    const closing = running === null ? Promise.resolve() : running.close();
    void closing.finally(() => {
      report({ type: 'stopped' });
      process.exit(0);
    });
  }
});
