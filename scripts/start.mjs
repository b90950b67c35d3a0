// `npm start`: build, then show the app. Where Electron runs, the desktop app on the embedded
// sandbox bank. Where its binary is missing and cannot be downloaded (the project's build
// machines, many locked-down laptops), or there is no display for a window, say so in one plain
// sentence and open the same app in the browser instead (web mode, `npm run serve`).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildIsCurrent, buildQuietly } from './build.mjs';
import { serveFromBuild } from './serve.mjs';

const require = createRequire(import.meta.url);
const electronDir = dirname(require.resolve('electron/package.json'));
const electronVersion = require('electron/package.json').version;

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

/** Linux without X11 or Wayland has nowhere to put a window. */
function hasDisplay() {
  if (process.platform !== 'linux') return true;
  return Boolean(process.env.DISPLAY) || Boolean(process.env.WAYLAND_DISPLAY);
}

const HOW_TO_GET_ELECTRON = `To get the desktop app: ELECTRON_MIRROR=https://your-mirror.example/electron/ npx install-electron
(on a machine that can reach a mirror), or ELECTRON_OVERRIDE_DIST_PATH=/path/to/electron/dist npm start.`;

async function startWebMode(reason) {
  process.stdout.write(`\n${reason} Ledgerdesk opens in your browser instead (web mode).\n${HOW_TO_GET_ELECTRON}\n\n`);
  // In this process, from the bundle just checked (or built) above: Ctrl+C and SIGTERM stop it in order.
  await serveFromBuild(process.argv.slice(2));
}

if (buildIsCurrent()) {
  process.stdout.write('The build in out/ is newer than every source: not built again.\n');
} else {
  const status = buildQuietly({ say: (line) => process.stdout.write(`${line}\n`) });
  if (status !== 0) process.exit(status);
}

let binary = electronBinary();
if (binary === null && hasDisplay()) {
  process.stdout.write(`Electron ${electronVersion} is not installed; trying to download it once...\n`);
  // Its output is a stack trace when the download host is unreachable: kept out of the terminal.
  const download = run(process.execPath, [join(electronDir, 'install.js')], { timeout: 120_000, stdio: 'pipe' });
  binary = download.status === 0 ? electronBinary() : null;
}

if (!hasDisplay()) {
  await startWebMode('This machine has no display for the desktop window (no DISPLAY or WAYLAND_DISPLAY).');
} else if (binary === null) {
  await startWebMode(`Electron ${electronVersion} is not installed here and could not be downloaded.`);
} else {
  process.stdout.write('Ledgerdesk opens in its own window. Closing the window, or Ctrl+C here, stops it.\n');
  const child = spawn(binary, ['.', ...process.argv.slice(2)], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
}
