/**
 * The packaging configuration, checked without packaging (electron-builder's downloads are
 * blocked here): electron-builder.yml through electron-builder's own loader and schema, the
 * files allowlist, the targets, and the fuses hook run for real on a stand-in binary.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { describe, expect, it } from 'vitest';

interface BuilderConfig {
  appId?: string;
  productName?: string;
  asar?: boolean;
  /** After loading, patterns are grouped as `{ filter: [...] }`. */
  files?: (string | { filter?: string[] })[];
  asarUnpack?: string[];
  npmRebuild?: boolean;
  afterPack?: string;
  linux?: { target?: string[] };
  deb?: { depends?: string[] };
  mac?: { target?: string[] };
  win?: { target?: string[] };
}

// electron-builder's own configuration loader and schema validator (app-builder-lib).
const loader = await import('app-builder-lib/out/util/config/config.js');
const { DebugLogger } = await import('builder-util');
const hook = await import('../../../build/afterPack.mjs');

const root = process.cwd();
const config = (await loader.getConfig(root, join(root, 'electron-builder.yml'), null)) as unknown as BuilderConfig;

describe('electron-builder.yml', () => {
  it('passes electron-builder’s own schema validation', async () => {
    await expect(loader.validateConfiguration(config as never, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('names the app', () => {
    expect(config.appId).toBe('com.ledgerdesk.desktop');
    expect(config.productName).toBe('Ledgerdesk');
  });

  it('packs into an asar, unpacking only native modules, with nothing to rebuild', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual([
      '**/*.node',
      'out/main/cacheWriterWorker.js',
      'out/main/chunks/recordAttach-*.js',
    ]);
    expect(config.npmRebuild).toBe(false);
  });

  it('ships only the built app: a strict allowlist from out/', () => {
    const patterns = (config.files ?? []).flatMap((entry) =>
      typeof entry === 'string' ? [entry] : (entry.filter ?? []),
    );
    const included = patterns.filter((pattern) => !pattern.startsWith('!'));
    expect(included.sort()).toEqual(['out/main/**/*', 'out/preload/**/*', 'out/renderer/**/*', 'package.json']);
    expect(patterns).toContain('!**/*.map');
  });

  it('builds AppImage and deb (with libsecret), dmg and nsis', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.deb?.depends).toContain('libsecret-1-0');
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.win?.target).toEqual(['nsis']);
  });

  it('runs the fuses hook after packing', () => {
    expect(config.afterPack).toBe('build/afterPack.mjs');
  });

  it('is what npm run package uses', () => {
    const scripts = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts['package']).toContain('electron-builder');
    expect(scripts['package']).toContain('electron-vite build');
  });
});

describe('the fuses hook', () => {
  it('finds the Electron binary on every platform', () => {
    const packager = { appInfo: { productFilename: 'Ledgerdesk' }, executableName: 'ledgerdesk' };
    expect(hook.electronBinaryOf({ electronPlatformName: 'linux', appOutDir: '/o', packager })).toBe('/o/ledgerdesk');
    expect(hook.electronBinaryOf({ electronPlatformName: 'win32', appOutDir: '/o', packager })).toBe(
      '/o/Ledgerdesk.exe',
    );
    expect(hook.electronBinaryOf({ electronPlatformName: 'darwin', appOutDir: '/o', packager })).toBe(
      '/o/Ledgerdesk.app',
    );
  });

  it('flips the fuses of a binary: run-as-node and NODE_OPTIONS off; cookie encryption, asar-only and asar integrity on', async () => {
    // A stand-in binary: some bytes, the fuse sentinel, version 1, and a wire of 9 fuses all enabled.
    const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-fuses-'));
    const wire = Buffer.from(Array.from({ length: 9 }, () => FuseState.ENABLE as number));
    writeFileSync(
      join(folder, 'ledgerdesk'),
      Buffer.concat([
        Buffer.alloc(64, 7),
        Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'),
        Buffer.from([1, 9]),
        wire,
        Buffer.alloc(64, 7),
      ]),
    );
    await hook.afterPack({
      electronPlatformName: 'linux',
      arch: 1,
      appOutDir: folder,
      packager: { appInfo: { productFilename: 'Ledgerdesk' }, executableName: 'ledgerdesk' },
    });
    const fuses = await getCurrentFuseWire(join(folder, 'ledgerdesk'));
    expect(fuses[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(fuses[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE);
    expect(fuses[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE);
    expect(fuses[FuseV1Options.EnableCookieEncryption]).toBe(FuseState.ENABLE);
    expect(fuses[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
    expect(fuses[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(FuseState.ENABLE);
  });
});
