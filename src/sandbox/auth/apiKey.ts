/**
 * The sandbox's API key when none is given: random, made on the data file's first run and
 * kept in it (`meta.api_key`), so a restart on the same file answers to the same key and the
 * banner prints it again; ':memory:' makes a new one each run. Never a published constant:
 * anything on the machine (or a DNS-rebinding page) could otherwise drive the bank.
 */
import { randomBytes } from 'node:crypto';
import { readMeta, writeMeta, type Database } from '../store/database.ts';

export interface ApiKey {
  keyId: string;
  keySecret: string;
}

const META_NAME = 'api_key';

function isApiKey(value: unknown): value is ApiKey {
  if (typeof value !== 'object' || value === null) return false;
  const key = value as Record<string, unknown>;
  return typeof key['keyId'] === 'string' && typeof key['keySecret'] === 'string' && key['keySecret'].length >= 8;
}

function newApiKey(): ApiKey {
  return { keyId: `key_sandbox_${randomBytes(6).toString('hex')}`, keySecret: randomBytes(24).toString('base64url') };
}

/** The data file's key, made and stored on first use (an unreadable stored key is replaced). */
export function dataFileApiKey(database: Database): ApiKey {
  const stored = readMeta(database, META_NAME);
  if (stored !== undefined) {
    try {
      const parsed = JSON.parse(stored) as unknown;
      if (isApiKey(parsed)) return parsed;
    } catch {
      // Replaced below: a key nobody can read is no key.
    }
  }
  const key = newApiKey();
  writeMeta(database, META_NAME, JSON.stringify(key));
  return key;
}
