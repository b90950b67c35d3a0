/**
 * Packages the app for real (issue 15, item 7): electron-builder `--linux dir` on a temporary
 * copy of the project holding the built app and only its production dependencies, against a
 * stub Electron distribution (an `electron` file and a `version` file), so it downloads
 * nothing. The fuses step needs the real Electron binary and is replaced by a no-op here
 * (tests/unit/shell/packagingConfig.test.ts runs it on a stand-in binary).
 *
 * Then reads the archive's own header and checks that every file the main bundle loads at run
 * time (its chunks, the sandbox bank's bundle, the preload, the renderer and its assets, the
 * cache writer's worker, the production packages, the keychain's native binding) is where the
 * packaged app will look for it, inside app.asar or beside it in app.asar.unpacked.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAsar, type AsarArchive } from './asarArchive.ts';

const root = process.cwd();
/** The Electron the project pins (package.json), so the stand-in says the same version. */
const ELECTRON_VERSION =
  (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
    .devDependencies['electron'] ?? '';
/** Only stops a hung packaging run; nothing here measures time. */
const HANG_GUARD_MS = 600_000;

interface LockEntry {
  dev?: boolean;
  devOptional?: boolean;
  optional?: boolean;
}

let temp: string | undefined;
let project: string;
let unpackedApp: string;
let archive: AsarArchive;
let proxyConnections = 0;
let proxy: Server | undefined;
let builderOutput = '';

/** Copies the production packages of package-lock.json (those installed here) into `target`. */
function copyProductionDependencies(target: string): void {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev === true || entry.devOptional === true) continue;
    const source = join(root, path);
    // Platform packages of other systems (optional) are not installed here.
    if (!existsSync(source)) continue;
    const real = realpathSync(source);
    cpSync(real, join(target, path), {
      recursive: true,
      // Nested node_modules are listed in the lock file on their own, production or not.
      filter: (file) => file === real || basename(file) !== 'node_modules',
    });
  }
}

function runElectronBuilder(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const cli = join(realpathSync(join(root, 'node_modules', 'electron-builder')), 'cli.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: project, env });
    const guard = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS);
    child.stdout.on('data', (chunk: Buffer) => (builderOutput += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (builderOutput += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve(code ?? -1);
    });
  });
}

beforeAll(async () => {
  if (!existsSync(join(root, 'out', 'main', 'index.js'))) {
    throw new Error('The app is not built: run `npm run build` first (npm test does).');
  }
  const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-package-'));
  temp = folder;
  project = join(folder, 'project');
  mkdirSync(project);
  for (const entry of ['package.json', 'package-lock.json', 'electron-builder.yml', 'build', 'out']) {
    cpSync(join(root, entry), join(project, entry), { recursive: true });
  }
  copyProductionDependencies(project);

  const electronDist = join(folder, 'electron-dist');
  mkdirSync(electronDist);
  writeFileSync(join(electronDist, 'electron'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(electronDist, 'electron'), 0o755);
  writeFileSync(join(electronDist, 'version'), ELECTRON_VERSION);
  const skipFuses = join(folder, 'skip-fuses.mjs');
  writeFileSync(
    skipFuses,
    '// The stub Electron has no fuses to flip.\nexport default async function afterPack() {}\n',
  );

  // Every proxy variable points at a listener that counts connections: a download attempt,
  // by electron-builder or by its Go helper, would show up here (and fail) instead of leaving.
  const recorder = createServer((socket) => {
    proxyConnections += 1;
    socket.destroy();
  });
  proxy = recorder;
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  const address = recorder.address();
  const proxyUrl = `http://127.0.0.1:${String(typeof address === 'object' && address !== null ? address.port : 0)}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HTTP_PROXY: proxyUrl,
    HTTPS_PROXY: proxyUrl,
    http_proxy: proxyUrl,
    https_proxy: proxyUrl,
    ELECTRON_GET_USE_PROXY: '1',
    GLOBAL_AGENT_HTTP_PROXY: proxyUrl,
    NO_PROXY: '',
    no_proxy: '',
    ELECTRON_BUILDER_CACHE: join(folder, 'builder-cache'),
    ELECTRON_CACHE: join(folder, 'electron-cache'),
    npm_config_offline: 'true',
  };
  const code = await runElectronBuilder(
    [
      '--linux',
      'dir',
      '--projectDir',
      project,
      `-c.electronDist=${electronDist}`,
      `-c.directories.output=${join(folder, 'dist')}`,
      `-c.afterPack=${skipFuses}`,
      '--publish',
      'never',
    ],
    env,
  );
  if (code !== 0) throw new Error(`electron-builder failed (exit ${String(code)}):\n${builderOutput}`);
  unpackedApp = join(folder, 'dist', 'linux-unpacked');
  archive = openAsar(join(unpackedApp, 'resources', 'app.asar'));
});

afterAll(async () => {
  const listening = proxy;
  if (listening !== undefined) {
    await new Promise<void>((resolve) => {
      listening.close(() => {
        resolve();
      });
    });
  }
  if (temp !== undefined) rmSync(temp, { recursive: true, force: true });
});

/** What a bundle imports: relative files and bare package names (node: builtins left out). */
function importsOf(source: string): { relative: string[]; packages: string[] } {
  // `import` as a statement or call, never a property (`action: "listener.import"`) nor the
  // end of a string (`"record import": "…"`): a space or a parenthesis before the name; one line.
  const specifiers = [...source.matchAll(/(?:\bfrom\s*|(?<![.\w$])import(?:\s+|\s*\(\s*))["']([^"'\n]+)["']/g)].map(
    (match) => match[1] ?? '',
  );
  const relative = specifiers.filter((specifier) => specifier.startsWith('.'));
  const packages = specifiers
    .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:') && specifier !== '')
    .map((specifier) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    );
  return { relative: [...new Set(relative)], packages: [...new Set(packages)] };
}

/** The bytes of an archived file, wherever it is stored (inside, or unpacked beside it). */
function contentOf(path: string): string {
  const entry = archive.entries.get(path);
  if (entry === undefined) throw new Error(`${path} is not in app.asar`);
  return entry.unpacked
    ? readFileSync(join(unpackedApp, 'resources', 'app.asar.unpacked', path), 'utf8')
    : archive.read(path).toString('utf8');
}

/** A bundle and every file it imports, relative import by relative import. */
function closureOf(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (path: string): void => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const specifier of importsOf(contentOf(path)).relative) visit(posix.join(posix.dirname(path), specifier));
  };
  visit(entry);
  return [...seen];
}

/** Where Node would find `name` from a file at `from` inside the archive (the node_modules walk). */
function packageFolderOf(name: string, from: string): string | null {
  for (let folder = posix.dirname(from); ; folder = posix.dirname(folder)) {
    const candidate = folder === '.' ? `node_modules/${name}` : `${folder}/node_modules/${name}`;
    if (archive.entries.has(`${candidate}/package.json`)) return candidate;
    if (folder === '.' || folder === '/') return null;
  }
}

/** Every package `names` need at run time, each resolved as Node would resolve it. */
function missingPackages(names: string[], from: string): string[] {
  const missing: string[] = [];
  const seen = new Set<string>();
  const visit = (name: string, origin: string): void => {
    const folder = packageFolderOf(name, origin);
    if (folder === null) {
      missing.push(`${name} (needed by ${origin})`);
      return;
    }
    if (seen.has(folder)) return;
    seen.add(folder);
    const manifest = JSON.parse(archive.read(`${folder}/package.json`).toString('utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    const optional = new Set(Object.keys(manifest.optionalDependencies ?? {}));
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      if (!optional.has(dependency)) visit(dependency, `${folder}/package.json`);
    }
  };
  for (const name of names) visit(name, from);
  return missing;
}

describe('the packaged app (electron-builder --linux dir, stub Electron)', () => {
  it('builds linux-unpacked with the real app.asar and app.asar.unpacked, downloading nothing', () => {
    expect(existsSync(join(unpackedApp, 'ledgerdesk'))).toBe(true);
    expect(existsSync(join(unpackedApp, 'resources', 'app.asar.unpacked'))).toBe(true);
    expect(JSON.parse(contentOf('package.json'))).toMatchObject({ name: 'ledgerdesk', main: 'out/main/index.js' });
    expect(proxyConnections).toBe(0);
    expect(builderOutput).not.toMatch(/downloading/i);
  });

  it('has the main bundle and each file it loads by path where the bundle looks for it', () => {
    const main = contentOf('out/main/index.js');
    // The bundle's own paths (index.ts, cacheWriter.ts), relative to out/main: if they change,
    // this list has to change with them.
    const loadedByPath: [literal: string, archived: string][] = [
      ['../preload/index.cjs', 'out/preload/index.cjs'],
      ['sandbox.js', 'out/main/sandbox.js'],
      ['./cacheWriterWorker.js', 'out/main/cacheWriterWorker.js'],
      ['../renderer', 'out/renderer/index.html'],
    ];
    for (const [literal, archived] of loadedByPath) {
      expect(main, literal).toContain(`"${literal}"`);
      expect(archive.entries.has(archived), archived).toBe(true);
    }
    // The renderer's page and every asset it names.
    const page = contentOf('out/renderer/index.html');
    const assets = [...page.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+)"/g)].map((match) => match[1] ?? '');
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect(archive.entries.has(`out/renderer/${asset}`), asset).toBe(true);
    // The main bundle and the sandbox bank's bundle, with every chunk they import, in the archive.
    for (const bundle of ['out/main/index.js', 'out/main/sandbox.js']) {
      for (const file of closureOf(bundle)) expect(archive.entries.has(file), `${bundle} → ${file}`).toBe(true);
    }
    expect(archive.entries.get('out/preload/index.cjs')?.unpacked).toBe(false);
  });

  it('unpacks the cache writer’s worker with what it imports, so it starts from a real file', () => {
    const worker = closureOf('out/main/cacheWriterWorker.js');
    expect(worker.length).toBeGreaterThan(1);
    for (const file of worker) {
      expect(archive.entries.get(file)?.unpacked, file).toBe(true);
      expect(existsSync(join(unpackedApp, 'resources', 'app.asar.unpacked', file)), file).toBe(true);
      // Loaded from app.asar.unpacked, a package import would look in a node_modules that is
      // not there: the worker's files may import only Node's builtins and each other.
      expect(importsOf(contentOf(file)).packages, file).toEqual([]);
    }
  });

  it('carries every production package the bundles import, with their own dependencies', () => {
    const devDependencies = Object.keys(
      (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
        .devDependencies,
    );
    for (const bundle of ['out/main/index.js', 'out/main/sandbox.js']) {
      const packages = closureOf(bundle)
        .flatMap((file) => importsOf(contentOf(file)).packages)
        .filter((name) => name !== 'electron');
      expect(packages.length, bundle).toBeGreaterThan(0);
      expect(missingPackages([...new Set(packages)], bundle), bundle).toEqual([]);
    }
    // A package listed for development that a production package also needs (ajv, through
    // fastify) is shipped for that package: the lockfile marks only the others dev-only.
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const devOnly = devDependencies.filter((name) => lock.packages[`node_modules/${name}`]?.dev === true);
    expect(devOnly.length).toBeGreaterThan(0);
    const shipped = devOnly.filter((name) => archive.entries.has(`node_modules/${name}/package.json`));
    expect(shipped).toEqual([]);
  });

  it('keeps every native binding outside the archive, the keychain’s for this platform included', () => {
    const natives = [...archive.entries.values()].filter((entry) => entry.path.endsWith('.node'));
    expect(natives.map((entry) => entry.path)).toContain(
      'node_modules/@napi-rs/keyring-linux-x64-gnu/keyring.linux-x64-gnu.node',
    );
    for (const native of natives) {
      expect(native.unpacked, native.path).toBe(true);
      expect(existsSync(join(unpackedApp, 'resources', 'app.asar.unpacked', native.path)), native.path).toBe(true);
    }
    // The loader that requires it stays in the archive, where Electron redirects the require.
    expect(archive.entries.has('node_modules/@napi-rs/keyring/index.js')).toBe(true);
    expect(dirname('node_modules/@napi-rs/keyring/index.js')).toBe('node_modules/@napi-rs/keyring');
  });
});
