// The build of `npm run build`, run again only when it is older than what it is built from:
// `npm start` and web mode (`npm run serve`, `ledger serve`) build first when out/ is missing
// or stale, and skip it otherwise (a build is 7 s on an idle two-core machine, far more on a
// busy one). Plain JavaScript, so checking costs no TypeScript loading.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
export function build(output = 'inherit') {
  const steps = [
    [join('node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    [join('node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'vite.web.config.ts'],
  ];
  for (const step of steps) {
    const run = spawnSync(process.execPath, step, { cwd: PROJECT_FOLDER, stdio: ['ignore', output, 'inherit'] });
    if (run.status !== 0) return run.status ?? 1;
  }
  return 0;
}

if (import.meta.main) process.exit(build());
