/**
 * The earlier builds a benchmark is measured against in the same run (`--against REF`): REF
 * checked out in a temporary worktree under the system's temporary folder, its node_modules
 * hard links of this checkout's when REF's package-lock.json asks for nothing this one does not
 * have at the same version (an older build usually asks for fewer packages), else `npm ci`
 * installs its own. `--tree DIR` names a checkout already made instead. Worktrees made here are
 * removed by `removeBuild`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface Build {
  /** What the report calls it: "this checkout", or the ref and its commit. */
  name: string;
  folder: string;
  /** Made here, removed at the end. */
  temporary: boolean;
}

export const HERE = resolve(import.meta.dirname, '..', '..');

export function git(args: string[], cwd = HERE): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

/** Every package (path → version) a package-lock.json installs. */
function lockedPackages(lock: string): Map<string, string> {
  const parsed = JSON.parse(lock) as { packages?: Record<string, { version?: string }> };
  return new Map(
    Object.entries(parsed.packages ?? {})
      .filter(([path]) => path !== '')
      .map(([path, entry]) => [path, entry.version ?? '']),
  );
}

/** Whether this checkout's node_modules holds every package REF's lockfile asks for, at its version. */
function modulesServe(refLock: string): boolean {
  const ours = lockedPackages(readFileSync(join(HERE, 'package-lock.json'), 'utf8'));
  for (const [path, version] of lockedPackages(refLock)) {
    if (ours.get(path) !== version) return false;
  }
  return true;
}

export function thisCheckout(): Build {
  return { name: `this checkout (${git(['rev-parse', '--short', 'HEAD'])})`, folder: HERE, temporary: false };
}

export function treeBuild(tree: string): Build {
  return { name: `${tree} (${git(['rev-parse', '--short', 'HEAD'], tree)})`, folder: tree, temporary: false };
}

export function checkoutBuild(ref: string): Build {
  const commit = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const folder = join(mkdtempSync(join(tmpdir(), 'ledgerdesk-against-')), commit.slice(0, 7));
  git(['worktree', 'add', '--detach', folder, commit]);
  const build: Build = { name: `${ref} (${commit.slice(0, 7)})`, folder, temporary: true };
  try {
    if (modulesServe(readFileSync(join(folder, 'package-lock.json'), 'utf8'))) {
      execFileSync('cp', ['-al', join(HERE, 'node_modules'), join(folder, 'node_modules')]);
    } else {
      process.stdout.write(`  ${build.name}: its package-lock.json differs from this one's; npm ci…\n`);
      execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: folder, stdio: 'inherit' });
    }
  } catch (error) {
    removeBuild(build);
    throw error;
  }
  return build;
}

export function removeBuild(build: Build): void {
  if (!build.temporary) return;
  try {
    git(['worktree', 'remove', '--force', build.folder]);
  } catch {
    rmSync(build.folder, { recursive: true, force: true });
    git(['worktree', 'prune']);
  }
  rmSync(resolve(build.folder, '..'), { recursive: true, force: true });
}
