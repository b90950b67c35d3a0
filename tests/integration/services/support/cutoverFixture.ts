/**
 * A data folder from before the record cut-over in a throwaway folder: its files copied, its
 * keychain entries put into the given store (a real Secret Service's in these tests), and what
 * the build that made it listed (expected.json). Two such folders are kept:
 * - tests/fixtures/record-before-cutover: made by main just before the cut-over (record.sqlite
 *   there, unused for the record);
 * - tests/fixtures/record-af86022: made by af86022 itself, the last released build (no
 *   record.sqlite at all).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SecretStore } from '../../../../src/main/services/credentials/secretStore.ts';

export type CutoverFixture = 'record-before-cutover' | 'record-af86022';

const fixtureFolder = (fixture: CutoverFixture): string => resolve(import.meta.dirname, '../../../fixtures', fixture);

export interface CutoverExpected {
  madeBy: string;
  profileId: string;
  reviews: { ref: string; state: string; note: string | null; steps: number }[];
  rules: string[];
  reviewer: string;
}

export function cutoverExpected(fixture: CutoverFixture = 'record-before-cutover'): CutoverExpected {
  return JSON.parse(readFileSync(join(fixtureFolder(fixture), 'expected.json'), 'utf8')) as CutoverExpected;
}

/** Copies the folder's files into `folder` (made if need be). */
export function copyCutoverFolder(folder: string, fixture: CutoverFixture = 'record-before-cutover'): void {
  mkdirSync(folder, { recursive: true });
  for (const name of ['cache.db', 'record.sqlite', 'config.json']) {
    const file = join(fixtureFolder(fixture), name);
    if (existsSync(file)) copyFileSync(file, join(folder, name));
  }
}

/** Puts the fixture's keychain entries into `store`. */
export async function loadCutoverKeychain(
  store: SecretStore,
  fixture: CutoverFixture = 'record-before-cutover',
): Promise<void> {
  const entries = JSON.parse(readFileSync(join(fixtureFolder(fixture), 'keychain.json'), 'utf8')) as Record<
    string,
    string
  >;
  for (const [account, secret] of Object.entries(entries)) await store.set(account, secret);
}
