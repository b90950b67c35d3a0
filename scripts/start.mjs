// `npm start`: build, then launch Electron on the embedded sandbox bank. Where the Electron
// binary is missing and cannot be downloaded (as on the project's build machines), stop
// with a clear message instead of a stack trace.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const electronDir = dirname(require.resolve('electron/package.json'));

function run(command, args, options = {}) {
  return spawnSync(command, args, { stdio: 'inherit', ...options });
}

function electronBinary() {
  const pathFile = join(electronDir, 'path.txt');
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    return join(
      process.env.ELECTRON_OVERRIDE_DIST_PATH,
      existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : 'electron',
    );
  }
  if (!existsSync(pathFile)) return null;
  const binary = join(electronDir, 'dist', readFileSync(pathFile, 'utf8'));
  return existsSync(binary) ? binary : null;
}

function explainMissingElectron() {
  process.stderr.write(`
Ledgerdesk cannot start: the Electron ${require('electron/package.json').version} binary is not installed,
and downloading it failed (this machine cannot reach the Electron download host).

To fix it, on a machine with network access to a mirror:
  ELECTRON_MIRROR=https://your-mirror.example/electron/ npx install-electron
or point at an Electron build you already have:
  ELECTRON_OVERRIDE_DIST_PATH=/path/to/electron/dist npm start

These work without Electron:
  npm run sandbox    the embedded sandbox bank, as a standalone HTTP server
  npm run listen     the local webhook listener
  npm run ledger     the headless command line (profiles, sync, lists, exports)
  npm test           the whole test suite (renderer in Chromium, services in Node)
`);
  process.exit(1);
}

const build = run(process.execPath, [join('node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build']);
if (build.status !== 0) process.exit(build.status ?? 1);

let binary = electronBinary();
if (binary === null) {
  process.stdout.write('Electron binary not found; trying to download it once...\n');
  const download = run(process.execPath, [join(electronDir, 'install.js')], { timeout: 120_000 });
  binary = download.status === 0 ? electronBinary() : null;
}
if (binary === null) explainMissingElectron();

const child = spawn(binary, ['.', ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
