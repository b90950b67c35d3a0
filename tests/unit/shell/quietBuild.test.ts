/**
 * A quiet start (issue 38): `npm start` and `npm run serve` keep the build's output in a log
 * file and tell the person two lines, where the log is and that it is built; a failed build
 * shows the log's last lines (its errors) and the log's path. Real child processes stand in
 * for the bundlers, each printing as much as electron-vite does.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildQuietly } from '../../../scripts/build.mjs';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-quiet-build-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** A step that prints `lines` lines on stdout and one on stderr, then exits with `status`. */
function step(name: string, lines: number, status = 0): string[] {
  const script = join(folder, `${name}.mjs`);
  writeFileSync(
    script,
    `for (let i = 1; i <= ${String(lines)}; i++) console.log('${name} chunk ' + i);
     console.error('${name} says on stderr');
     process.exit(${String(status)});`,
  );
  return [script];
}

describe('buildQuietly', () => {
  it('tells where the log is and that it is built; the log holds every step’s output', () => {
    const said: string[] = [];
    const log = join(folder, 'out', 'build.log');
    const status = buildQuietly({
      say: (line: string) => said.push(line),
      log,
      steps: [step('electron-vite', 120), step('vite', 80)],
    });
    expect(status).toBe(0);
    expect(said).toHaveLength(2);
    expect(said[0]).toBe(
      `Building Ledgerdesk (out/ is missing or older than the sources); the build's output goes to ${log}`,
    );
    expect(said[1]).toMatch(/^Built in \d+ s\.$/);
    const kept = readFileSync(log, 'utf8');
    expect(kept).toContain('electron-vite chunk 120');
    expect(kept).toContain('electron-vite says on stderr');
    expect(kept).toContain('vite chunk 80');
  });

  it('shows the end of the log and its path when a step fails, and runs no step after it', () => {
    const said: string[] = [];
    const log = join(folder, 'build.log');
    const status = buildQuietly({
      say: (line: string) => said.push(line),
      log,
      steps: [step('electron-vite', 100, 3), step('vite', 5)],
    });
    expect(status).toBe(3);
    expect(said[1]).toBe(`The build failed; the last 40 lines of ${log}:`);
    const tail = said[2]?.split('\n') ?? [];
    expect(tail).toHaveLength(40);
    expect(tail.at(-1)).toBe('electron-vite says on stderr');
    expect(tail[0]).toBe('electron-vite chunk 62');
    expect(readFileSync(log, 'utf8')).not.toMatch(/^vite chunk/m);
  });
});
