/**
 * A listener's settings and response rules, validated at the edge and kept in its own row
 * (`listener_settings`), so the port, caps and rules survive restarts. No secret is ever
 * part of them: the Basic secret lives in the SecretStore.
 */
import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import { allowedHostEntry, allowedOriginEntry } from '../../../shared/security/localServerGuard.ts';
import { responseRules, type ResponseRule } from './responseRules.ts';

const MiB = 1024 * 1024;

const retentionSettings = z.strictObject({
  maxAgeDays: z.number().min(0.001).max(3650),
  maxRequests: z.number().int().min(1).max(10_000_000),
  maxBytes: z
    .number()
    .int()
    .min(64 * 1024)
    .max(64 * 1024 * MiB),
});

/** A text checked and normalized by one of the guard's entry functions (their RangeError becomes the issue). */
function normalized(normalize: (text: string) => string) {
  return z
    .string()
    .max(300)
    .transform((text, context) => {
      try {
        return normalize(text);
      } catch (error) {
        context.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
        return z.NEVER;
      }
    });
}

const listenerSettings = z.strictObject({
  host: z.string().min(1).max(255),
  /** Listening on anything but loopback needs this explicit opt-in. */
  allowNonLoopback: z.boolean(),
  /** The port last listened on (null: the default), reused at the next start. */
  port: z.number().int().min(0).max(65_535).nullable(),
  /** The expected Basic user; its secret is in the SecretStore as `listener:<id>`. */
  basicUser: z.string().min(1).max(200).nullable(),
  /** Answer 401 when the verdict is not ok (off by default: a receipt is a receipt). */
  rejectUnverified: z.boolean(),
  /** Answer 400 when the body is not a notification (off by default, for the same reason). */
  rejectInvalidBody: z.boolean(),
  maxBodyBytes: z
    .number()
    .int()
    .min(1)
    .max(64 * MiB),
  keepBodyBytes: z
    .number()
    .int()
    .min(0)
    .max(64 * MiB),
  bodyTimeoutMs: z.number().int().min(1).max(600_000),
  noAnswerHoldMs: z.number().int().min(1).max(3_600_000),
  /** Forward each notification to this local handler (like `stripe listen --forward-to`). */
  forwardTo: z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' }).nullable(),
  forwardTimeoutMs: z.number().int().min(1).max(600_000),
  /**
   * Forward requests whose verdict is not ok too (on by default: the handler decides, told by
   * X-Ledgerdesk-Verdict); off, they are recorded as not forwarded.
   */
  forwardUnverified: z.boolean(),
  /** Names besides its own address the listener answers to (a tunnel's host): `name` at any port, `name:port`. */
  allowedHosts: z.array(normalized(allowedHostEntry)).max(50),
  /** Web page origins whose requests are kept; none by default (a page's request gets 403). */
  allowedOrigins: z.array(normalized(allowedOriginEntry)).max(50),
  /**
   * Origins other than the listener and loopback that forward and replay may send to. Added
   * only after a confirmation in the main process (Listener.allowTarget), never by configure().
   */
  allowedTargets: z.array(normalized(allowedOriginEntry)).max(100),
  /** Fetch the object of each verified notification from the bank and keep the snapshot. */
  hydrate: z.boolean(),
  retention: retentionSettings,
});
export type ListenerSettings = z.infer<typeof listenerSettings>;
const listenerSettingsPatch = listenerSettings
  .omit({ retention: true })
  .partial()
  .extend({ retention: retentionSettings.partial().optional() });

export const DEFAULT_LISTENER_SETTINGS: ListenerSettings = {
  host: '127.0.0.1',
  allowNonLoopback: false,
  port: null,
  basicUser: null,
  rejectUnverified: false,
  rejectInvalidBody: false,
  maxBodyBytes: MiB,
  keepBodyBytes: 256 * 1024,
  bodyTimeoutMs: 10_000,
  noAnswerHoldMs: 120_000,
  forwardTo: null,
  forwardTimeoutMs: 10_000,
  forwardUnverified: true,
  allowedHosts: [],
  allowedOrigins: [],
  allowedTargets: [],
  hydrate: true,
  retention: { maxAgeDays: 30, maxRequests: 100_000, maxBytes: 256 * MiB },
};

/** Apply a patch (validated); the result is validated as a whole too. */
export function patchSettings(current: ListenerSettings, patch: unknown): ListenerSettings {
  const changes = listenerSettingsPatch.parse(patch);
  return listenerSettings.parse({
    ...current,
    ...changes,
    retention: { ...current.retention, ...changes.retention },
  });
}

export class ListenerSettingsRow {
  readonly #database: DatabaseSync;
  readonly #listenerId: string;

  constructor(database: DatabaseSync, listenerId: string) {
    this.#database = database;
    this.#listenerId = listenerId;
  }

  /** The saved settings over the defaults (so a setting added later gets its default), and the rules. */
  load(): { settings: ListenerSettings; rules: ResponseRule[] } {
    const row = this.#database
      .prepare('SELECT settings, rules FROM listener_settings WHERE listener_id = ?')
      .get(this.#listenerId) as { settings: string; rules: string } | undefined;
    if (row === undefined) return { settings: DEFAULT_LISTENER_SETTINGS, rules: [] };
    const saved = listenerSettingsPatch.safeParse(JSON.parse(row.settings));
    const settings = saved.success ? patchSettings(DEFAULT_LISTENER_SETTINGS, saved.data) : DEFAULT_LISTENER_SETTINGS;
    const rules = responseRules.safeParse(JSON.parse(row.rules));
    return { settings, rules: rules.success ? rules.data : [] };
  }

  save(settings: ListenerSettings, rules: ResponseRule[]): void {
    this.#database
      .prepare(
        `INSERT INTO listener_settings (listener_id, settings, rules, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (listener_id) DO UPDATE SET settings = excluded.settings, rules = excluded.rules,
         updated_at = excluded.updated_at`,
      )
      .run(this.#listenerId, JSON.stringify(settings), JSON.stringify(rules), Date.now());
  }
}
