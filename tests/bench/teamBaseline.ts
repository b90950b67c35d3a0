/**
 * The team benchmark's same-run baseline: the build af86022 (before laptops re-decided every
 * event, issue 35), checked out beside this one and run against the same throwaway cluster,
 * through the same relay, in the same process. Its modules are imported from that checkout, so
 * what is measured is its code, not an imitation.
 *
 * LEDGERDESK_BENCH_TEAM_BASELINE=DIR names a checkout of af86022 (with node_modules reachable
 * from it); otherwise one is made for the run with `git worktree add --detach` in a temporary
 * folder (its node_modules a link to this one's) and removed afterwards.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const BASELINE_COMMIT = 'af86022';

export interface BaselineCheckout {
  root: string;
  /** Imports a module of the baseline by its path in the repository. */
  load<Module = Record<string, unknown>>(path: string): Promise<Module>;
  remove(): void;
}

const repository = resolve(import.meta.dirname, '../..');

function git(...args: string[]): string {
  return execFileSync('git', ['-C', repository, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

export function baselineCheckout(): BaselineCheckout {
  const given = process.env['LEDGERDESK_BENCH_TEAM_BASELINE'];
  let root: string;
  let remove = (): void => undefined;
  if (given !== undefined && given !== '') root = resolve(given);
  else {
    const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-bench-af86022-'));
    root = join(folder, 'checkout');
    git('worktree', 'add', '--detach', root, BASELINE_COMMIT);
    symlinkSync(join(repository, 'node_modules'), join(root, 'node_modules'));
    remove = () => {
      try {
        git('worktree', 'remove', '--force', root);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    };
  }
  const head = execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  if (!head.startsWith(BASELINE_COMMIT))
    throw new Error(`the baseline checkout ${root} is at ${head}, not ${BASELINE_COMMIT}`);
  if (!existsSync(join(root, 'node_modules'))) throw new Error(`the baseline checkout ${root} has no node_modules`);
  return {
    root,
    load: (path) => import(join(root, path)) as never,
    remove,
  };
}
