/**
 * `--next`: the next page of a list without pasting its cursor. The last cursor each list
 * answered is kept in the data folder (cli-cursors.json, owner-only), keyed by the command,
 * the profile and its filters, so `--next` continues the list the same filters listed. A
 * cursor holds sort keys of cached rows (times, amounts, row keys), never a secret; the file is
 * written whole through a temporary file, and only the most recent lists are kept.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../common/usageError.ts';

const FILE = 'cli-cursors.json';
const KEPT = 50;

type Remembered = Record<string, { cursor: string | null; at: string }>;

function load(dataFolder: string): Remembered {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(dataFolder, FILE), 'utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Remembered) : {};
  } catch {
    // None yet, or unreadable: nothing is remembered, and the next list starts it afresh.
    return {};
  }
}

/** The list a cursor belongs to: the command and every filter, but the paging itself. */
export function listKey(command: string, filters: Record<string, unknown>): string {
  const kept = Object.entries(filters)
    .filter(([name, value]) => value !== undefined && !['cursor', 'next', 'limit', 'json', 'data'].includes(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([command, kept]);
}

/** The cursor `--next` continues from; a usage problem when this list has none. */
export function rememberedCursor(dataFolder: string, key: string): string {
  const entry = load(dataFolder)[key];
  if (entry === undefined) {
    throw new UsageError('--next: this list has no earlier page to continue; run it without --next first.');
  }
  if (entry.cursor === null) {
    throw new UsageError('--next: the last page of this list was already shown; run it without --next to start over.');
  }
  return entry.cursor;
}

/** Keeps the cursor of the page just shown (null: it was the last page). */
export function rememberCursor(dataFolder: string, key: string, cursor: string | null, now = new Date()): void {
  const remembered = load(dataFolder);
  remembered[key] = { cursor, at: now.toISOString() };
  const newest = Object.entries(remembered)
    .sort(([, a], [, b]) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(0, KEPT);
  mkdirSync(dataFolder, { recursive: true, mode: 0o700 });
  const file = join(dataFolder, FILE);
  writeFileSync(`${file}.partial`, JSON.stringify(Object.fromEntries(newest)), { mode: 0o600 });
  renameSync(`${file}.partial`, file);
}
