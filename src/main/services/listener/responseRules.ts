/**
 * Failing on purpose: response rules chosen by event or path. With them a developer watches
 * the bank's retries, its backoff and the webhook going to error status (spec §3.2, §6.6).
 * "Fail N times, then succeed" counts per notification, that is per event and object id,
 * so each of the bank's retries of one notification is seen and the (N+1)th gets through.
 */
import { z } from 'zod';

const status = z.number().int().min(100).max(599);
const delayMs = z.number().int().min(0).max(600_000);

const ruleAction = z.discriminatedUnion('kind', [
  /** Answer this status (after an optional delay). */
  z.strictObject({ kind: z.literal('status'), status, delayMs: delayMs.optional() }),
  /** Answer late (default 200): lets the sender's timeout decide. */
  z.strictObject({ kind: z.literal('delay'), delayMs, status: status.optional() }),
  /** Keep the connection open and never answer: the sender times out. */
  z.strictObject({ kind: z.literal('no_answer') }),
  /** Close the connection without an answer. */
  z.strictObject({ kind: z.literal('drop') }),
  /** Answer `status` (default 500) to the first `times` arrivals of each notification, then `thenStatus` (default 200). */
  z.strictObject({
    kind: z.literal('fail_times'),
    times: z.number().int().min(1).max(1000),
    status: status.optional(),
    delayMs: delayMs.optional(),
    thenStatus: status.optional(),
  }),
]);

const responseRule = z.strictObject({
  id: z.string().min(1).max(100),
  /** Exact event name, or a prefix ending in `*` (`ach.*`); absent: every event. */
  event: z.string().min(1).max(200).optional(),
  /** Exact path, or a prefix ending in `*` (`/hooks/*`); absent: every path. */
  path: z.string().min(1).max(2000).optional(),
  action: ruleAction,
  enabled: z.boolean().optional(),
});
export type ResponseRule = z.infer<typeof responseRule>;
export const responseRules = z.array(responseRule).max(200);

/** What to do with one request. */
export interface RuleDecision {
  ruleId: string | null;
  behaviour: 'answer' | 'no_answer' | 'drop';
  /** The status to answer; null means "the listener's own choice" (200, or 401 when rejecting). */
  status: number | null;
  delayMs: number;
}

const NO_RULE: RuleDecision = { ruleId: null, behaviour: 'answer', status: null, delayMs: 0 };
/** Counters kept per (rule, event, object); bounded so a flood of distinct ids cannot grow memory without end. */
const MAX_COUNTERS = 100_000;

function matches(pattern: string | undefined, value: string | null): boolean {
  if (pattern === undefined) return true;
  if (value === null) return false;
  return pattern.endsWith('*') ? value.startsWith(pattern.slice(0, -1)) : value === pattern;
}

export class ResponseRules {
  #rules: ResponseRule[] = [];
  readonly #failures = new Map<string, number>();

  get rules(): ResponseRule[] {
    return this.#rules.map((rule) => structuredClone(rule));
  }

  /** Replace every rule (validated) and start counting afresh. */
  set(rules: unknown): ResponseRule[] {
    const parsed = responseRules.parse(rules);
    const ids = new Set<string>();
    for (const rule of parsed) {
      if (ids.has(rule.id)) throw new Error(`Two response rules share the id ${rule.id}.`);
      ids.add(rule.id);
    }
    this.#rules = parsed;
    this.#failures.clear();
    return this.rules;
  }

  resetCounters(): void {
    this.#failures.clear();
  }

  /** The first enabled rule that matches decides; no rule means a plain receipt. */
  decide(path: string, event: string | null, objectId: string | null): RuleDecision {
    for (const rule of this.#rules) {
      if (rule.enabled === false || !matches(rule.event, event) || !matches(rule.path, path)) continue;
      return this.#apply(rule, path, event, objectId);
    }
    return NO_RULE;
  }

  #apply(rule: ResponseRule, path: string, event: string | null, objectId: string | null): RuleDecision {
    const action = rule.action;
    switch (action.kind) {
      case 'status':
        return { ruleId: rule.id, behaviour: 'answer', status: action.status, delayMs: action.delayMs ?? 0 };
      case 'delay':
        return { ruleId: rule.id, behaviour: 'answer', status: action.status ?? null, delayMs: action.delayMs };
      case 'no_answer':
        return { ruleId: rule.id, behaviour: 'no_answer', status: null, delayMs: 0 };
      case 'drop':
        return { ruleId: rule.id, behaviour: 'drop', status: null, delayMs: 0 };
      case 'fail_times': {
        // A body that is not a notification has no event and id: count it by path instead.
        const key = `${rule.id}\u0000${event ?? ''}\u0000${objectId ?? path}`;
        const seen = this.#failures.get(key) ?? 0;
        this.#failures.delete(key);
        this.#failures.set(key, seen + 1);
        if (this.#failures.size > MAX_COUNTERS) {
          const oldest = this.#failures.keys().next();
          if (oldest.done !== true) this.#failures.delete(oldest.value);
        }
        const failing = seen < action.times;
        return {
          ruleId: rule.id,
          behaviour: 'answer',
          status: failing ? (action.status ?? 500) : (action.thenStatus ?? 200),
          delayMs: failing ? (action.delayMs ?? 0) : 0,
        };
      }
    }
  }
}
