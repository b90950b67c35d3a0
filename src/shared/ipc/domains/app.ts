/**
 * The app itself: who it is, whether each profile's bank is reachable, opening an external
 * link in the browser, and the offline cache's settings.
 */
import { z } from 'zod';
import { noInput, profileId } from '../common.ts';

const appInfo = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  /** The folder of profiles, cache and sandbox data (shown in Settings). */
  dataFolder: z.string(),
  /** The embedded sandbox bank's address; null while it is not running. */
  sandboxUrl: z.string().nullable(),
});

const ONLINE_STATES = ['online', 'offline', 'unknown'] as const;

const onlineStatus = z.object({
  profileId: z.string(),
  state: z.enum(ONLINE_STATES),
  /** When the state was last established (ISO 8601 UTC). */
  checkedAt: z.string().nullable(),
  /** When offline: why, in a sentence. */
  reason: z.string().nullable(),
  /** When offline: seconds until the next connectivity check. */
  nextCheckSeconds: z.number().min(0).nullable(),
});
export type OnlineStatus = z.infer<typeof onlineStatus>;

const cacheInfo = z.object({
  /** Size of the cache database on disk, in bytes. */
  sizeBytes: z.number().int().min(0),
  /** Whether the rows are sealed (AES-256-GCM) under a key held in the keychain. */
  encrypted: z.boolean(),
  /** E.g. "The data key is in the keychain." or why the cache was rebuilt. */
  message: z.string().nullable(),
});
export type CacheInfo = z.infer<typeof cacheInfo>;

/**
 * Something wrong with a store of the data folder that the officer must see at the top of the
 * window (issue 34): a store open read-only, a record locked, a dropped cache key, a failed verify.
 */
const storeProblem = z.object({
  /** The store in a person's words: "The offline cache". */
  store: z.string(),
  /** error: the officer's work is at risk or cannot be saved; warning: nothing is lost. */
  severity: z.enum(['error', 'warning']),
  sentence: z.string(),
});
export type StoreProblem = z.infer<typeof storeProblem>;

export const appOperations = {
  info: { input: noInput, output: appInfo },
  storeProblems: { input: noInput, output: z.object({ problems: z.array(storeProblem) }) },
  onlineStatus: { input: z.strictObject({ profileId }), output: onlineStatus },
} as const;

export const appEvents = {
  onlineStatus,
} as const;

export const cacheOperations = {
  info: { input: noInput, output: cacheInfo },
  /** Drops cached data (of one profile, or all); the next sync fetches it again. */
  clear: {
    input: z.strictObject({ profileId: profileId.optional() }),
    output: z.object({ cleared: z.boolean() }),
  },
} as const;
