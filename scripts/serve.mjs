// `npm run serve` (and `ledger serve`, and `npm start` where Electron cannot run): web mode, run
// from its bundle (out/web/serve.js, built by `npm run build`), in this process. Built first
// when out/ is missing or older than the sources, its output kept in out/build.log (two lines on
// stderr say where and when it is done), so stdout starts with web mode's own first line
// (`Ledgerdesk is open at …`, or `--json`'s).
import { enableCompileCache } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIsCurrent, buildQuietly, PROJECT_FOLDER } from './build.mjs';

/** With LEDGERDESK_START_TIMES=1, each phase of the start prints its time (src/main/app/startTimes.ts). */
function markStart(phase) {
  if (process.env.LEDGERDESK_START_TIMES !== '1') return;
  process.stderr.write(`ledgerdesk-start ${phase} ${(performance.timeOrigin + performance.now()).toFixed(1)}\n`);
}

/** Starts web mode with `args` (serve's own options); ends the process when web mode stops. */
export async function serveFromBuild(args) {
  markStart('launcher-loaded');
  if (!buildIsCurrent()) {
    // On stderr: stdout holds only web mode's own lines (`--json`'s).
    const status = buildQuietly({ say: (line) => process.stderr.write(`${line}\n`) });
    if (status !== 0) {
      process.stderr.write('Web mode cannot start without a build.\n');
      process.exit(status);
    }
  }
  markStart('build-checked');
  // V8 keeps the bundle's compiled code between runs (the sandbox's process is given the same
  // folder: forkSandbox.ts): loading it is then mostly reading. In the project's own folder, not
  // a shared /tmp, where another user could leave code for this process to run.
  enableCompileCache(join(PROJECT_FOLDER, 'node_modules', '.cache', 'ledgerdesk-web-mode'));
  const { runServeFromTerminal } = await import(pathToFileURL(join(PROJECT_FOLDER, 'out', 'web', 'serve.js')).href);
  await runServeFromTerminal(args);
}

if (import.meta.main) await serveFromBuild(process.argv.slice(2));
