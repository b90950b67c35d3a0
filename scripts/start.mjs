// `npm start`: build, then show the app. Where Electron runs, the desktop app on the embedded
// sandbox bank. Where its binary is missing and cannot be downloaded (the project's build
// machines, many locked-down laptops), or there is no display for a window, say so in one plain
// sentence and open the same app in the browser instead (web mode, `npm run serve`).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

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

function startWebMode(reason) {
  process.stdout.write(`\n${reason} Ledgerdesk opens in your browser instead (web mode).\n${HOW_TO_GET_ELECTRON}\n\n`);
  const child = spawn(process.execPath, [join('src', 'main', 'web', 'serve.ts'), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  // Ctrl+C reaches web mode too (same process group): it stops in order; this script waits for it.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code) => process.exit(code ?? 0));
}

/** The newest change under `path` (a file or a folder), in ms since the epoch; 0 when absent. */
function newestChange(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

/** What the build reads, and what it writes (each output's age is checked on its own). */
const BUILD_INPUTS = ['src', 'resources', 'electron.vite.config.ts', 'package.json', 'tsconfig.json'];
const BUILD_OUTPUTS = [
  'out/main/index.js',
  'out/main/sandbox.js',
  'out/preload/index.cjs',
  'out/renderer/index.html',
  'out/renderer/web-bridge.js',
];

/**
 * Whether out/ was built after the last change to anything it is built from: then starting
 * again does not build again (20 s on an idle two-core machine, far more on a busy one).
 */
function buildIsCurrent() {
  const oldestOutput = Math.min(...BUILD_OUTPUTS.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
  if (oldestOutput === 0) return false;
  return BUILD_INPUTS.every((input) => newestChange(input) < oldestOutput);
}

if (buildIsCurrent()) {
  process.stdout.write('The build in out/ is newer than every source: not built again.\n');
} else {
  const build = run(process.execPath, [join('node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build']);
  if (build.status !== 0) process.exit(build.status ?? 1);
}

let binary = electronBinary();
if (binary === null && hasDisplay()) {
  process.stdout.write(`Electron ${electronVersion} is not installed; trying to download it once...\n`);
  // Its output is a stack trace when the download host is unreachable: kept out of the terminal.
  const download = run(process.execPath, [join(electronDir, 'install.js')], { timeout: 120_000, stdio: 'pipe' });
  binary = download.status === 0 ? electronBinary() : null;
}

if (!hasDisplay()) {
  startWebMode('This machine has no display for the desktop window (no DISPLAY or WAYLAND_DISPLAY).');
} else if (binary === null) {
  startWebMode(`Electron ${electronVersion} is not installed here and could not be downloaded.`);
} else {
  const child = spawn(binary, ['.', ...process.argv.slice(2)], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
}
