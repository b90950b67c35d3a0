/**
 * When a failed delivery is tried again: exponential backoff with jitter.
 *
 *   delay(n) = min(cap, base * 2^n) * (1 + jitter),  jitter uniform in [0, 0.25)
 *
 * where n is the attempt_number that just failed (0 for the first try). The jitter stays
 * below the doubling, so before the cap every interval is longer than the one before it.
 * With the defaults (base 1 s, cap 1 h) the 15 retries come after 1 s, 2 s, 4 s ... 34 min,
 * then 1 h, 1 h, 1 h: about 4 h in all. --retry-base-ms scales base and (unless given) cap
 * together, so a test can run the whole schedule in well under a second.
 */
export const RETRY_BASE_MS_DEFAULT = 1000;
/** The cap, as a multiple of the base: 3600 × 1 s = 1 h. */
export const RETRY_CAP_FACTOR = 3600;
export const JITTER_MAX = 0.25;

export function retryDelayMs(failedAttempt: number, baseMs: number, capMs: number, random: () => number): number {
  const exponential = baseMs * 2 ** Math.min(failedAttempt, 40);
  return Math.round(Math.min(capMs, exponential) * (1 + random() * JITTER_MAX));
}
