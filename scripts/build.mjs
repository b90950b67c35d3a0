// The build of `npm run build`, run again only when it is older than what it is built from:
// `npm start` and web mode (`npm run serve`, `ledger serve`) build first when out/ is missing
// or stale, and skip it otherwise (a build is 7 s on an idle two-core machine, far more on a
// busy one). Plain JavaScript, so checking costs no TypeScript loading.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The project's folder (this file is in scripts/). */
export const PROJECT_FOLDER = join(import.meta.dirname, '..');

/** What the build reads, and what it writes (each output's age is checked on its own). */
const BUILD_INPUTS = [
  'src',
  'resources',
  'electron.vite.config.ts',
  'vite.web.config.ts',
  'package.json',
  'tsconfig.json',
];
const BUILD_OUTPUTS = [
  'out/main/index.js',
  'out/main/sandbox.js',
  'out/preload/index.cjs',
  'out/renderer/index.html',
  'out/renderer/web-bridge.js',
  'out/web/serve.js',
  'out/web/sandboxChild.js',
  'out/web/cacheWriterWorker.js',
];

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

/** Whether out/ was built after the last change to anything it is built from. */
export function buildIsCurrent() {
  const at = (file) => join(PROJECT_FOLDER, file);
  const oldestOutput = Math.min(
    ...BUILD_OUTPUTS.map((file) => (existsSync(at(file)) ? statSync(at(file)).mtimeMs : 0)),
  );
  if (oldestOutput === 0) return false;
  return BUILD_INPUTS.every((input) => newestChange(at(input)) < oldestOutput);
}

/**
 * `npm run build`'s two steps: electron-vite's bundles (main, preload, renderer), then web
 * mode's (vite.web.config.ts). `output` is where their progress goes: web mode sends it to
 * stderr, so that its stdout holds only what it promises (`--json` lines).
 * Returns the exit status (0: built).
 */
const BUILD_STEPS = [
  [join('node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
  [join('node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'vite.web.config.ts'],
];

export function build(output = 'inherit') {
  return runSteps(BUILD_STEPS, ['ignore', output, 'inherit']);
}

function runSteps(steps, stdio) {
  for (const step of steps) {
    const run = spawnSync(process.execPath, step, { cwd: PROJECT_FOLDER, stdio });
    if (run.status !== 0) return run.status ?? 1;
  }
  return 0;
}

/**
 * Where `npm start` and `npm run serve` keep the build's output: a person starting the app reads
 * two lines, not the bundler's two hundred (issue 38, "a quiet start"). In out/, which the build
 * makes and git ignores; beside the bundles, not inside one (each bundle's folder is emptied).
 */
export const BUILD_LOG = join(PROJECT_FOLDER, 'out', 'build.log');

/** Lines of the log shown when the build fails: its errors are at the end. */
const FAILED_TAIL = 40;

/**
 * The build for `npm start` and `npm run serve`: its output (stdout and stderr of every step)
 * goes to `log`, the terminal gets `say`'s lines: where the log is, then that it was built, or
 * the log's last lines when it failed. Returns the exit status (0: built).
 */
export function buildQuietly({ say, log = BUILD_LOG, steps = BUILD_STEPS }) {
  mkdirSync(dirname(log), { recursive: true });
  say(`Building Ledgerdesk (out/ is missing or older than the sources); the build's output goes to ${log}`);
  const started = performance.now();
  const file = openSync(log, 'w');
  let status;
  try {
    status = runSteps(steps, ['ignore', file, file]);
  } finally {
    closeSync(file);
  }
  if (status === 0) {
    say(`Built in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
    return 0;
  }
  const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
  say(`The build failed; the last ${String(Math.min(FAILED_TAIL, lines.length))} lines of ${log}:`);
  say(lines.slice(-FAILED_TAIL).join('\n'));
  return status;
}

if (import.meta.main) process.exit(build());
