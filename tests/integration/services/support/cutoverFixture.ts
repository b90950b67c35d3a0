/**
 * tests/fixtures/record-before-cutover in a throwaway folder: its files copied, its keychain
 * entries put into the given store (a real Secret Service's in these tests), and what the build
 * that made it listed (expected.json).
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SecretStore } from '../../../../src/main/services/credentials/secretStore.ts';

const FIXTURE = resolve(import.meta.dirname, '../../../fixtures/record-before-cutover');

export interface CutoverExpected {
  madeBy: string;
  profileId: string;
  reviews: { ref: string; state: string; note: string | null; steps: number }[];
  rules: string[];
  reviewer: string;
}

export function cutoverExpected(): CutoverExpected {
  return JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8')) as CutoverExpected;
}

/** Copies the folder's files into `folder` (made if need be). */
export function copyCutoverFolder(folder: string): void {
  mkdirSync(folder, { recursive: true });
  for (const name of ['cache.db', 'record.sqlite', 'config.json'])
    copyFileSync(join(FIXTURE, name), join(folder, name));
}

/** Puts the fixture's keychain entries into `store`. */
export async function loadCutoverKeychain(store: SecretStore): Promise<void> {
  const entries = JSON.parse(readFileSync(join(FIXTURE, 'keychain.json'), 'utf8')) as Record<string, string>;
  for (const [account, secret] of Object.entries(entries)) await store.set(account, secret);
}
