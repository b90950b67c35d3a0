/**
 * One-time confirmations of Production writes in web mode. A page's `confirmProduction: true`
 * is not enough: web mode's WriteConfirmer (tabWriteConfirmer.ts) issues a confirmation for
 * that exact write (its channel and a digest of its input and of what will be sent), asks the
 * user in the browser's own dialog with the server's description of the write, and lets the
 * write through only when that confirmation comes back, once, unexpired, for the same channel
 * and the same write. A page cannot confirm a write by setting a flag, reuse a confirmation,
 * or get one write confirmed and send another. The listener's "send to another host?" question
 * is answered the same way.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long an issued confirmation can be redeemed: long enough to read the question. */
export const CONFIRMATION_LIFETIME_MS = 10 * 60 * 1000;
/** The most confirmations outstanding at once; the oldest is dropped beyond it. */
const OUTSTANDING_MAX = 64;

interface Issued {
  channel: string;
  digest: string;
  expiresAt: number;
}

/** JSON with keys sorted, so the same input always has the same digest. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value instanceof Uint8Array) return JSON.stringify({ bytes: Buffer.from(value).toString('base64') });
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonical(entry)}`).join(',')}}`;
  }
  // JSON.stringify answers undefined for undefined, functions and symbols.
  return value === undefined || typeof value === 'function' || typeof value === 'symbol'
    ? 'undefined'
    : JSON.stringify(value);
}

/** The digest of a write's input, without the page's own confirmation flag. */
export function writeDigest(channel: string, input: unknown): string {
  const rest =
    typeof input === 'object' && input !== null && !Array.isArray(input)
      ? Object.fromEntries(Object.entries(input).filter(([key]) => key !== 'confirmProduction'))
      : input;
  return createHash('sha256').update(channel).update('\0').update(canonical(rest)).digest('hex');
}

export class WriteConfirmations {
  readonly #issued = new Map<string, Issued>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** A new one-time confirmation for this exact write. */
  issue(channel: string, input: unknown): string {
    const confirmation = randomBytes(32).toString('base64url');
    this.#issued.set(confirmation, {
      channel,
      digest: writeDigest(channel, input),
      expiresAt: this.#now() + CONFIRMATION_LIFETIME_MS,
    });
    while (this.#issued.size > OUTSTANDING_MAX) {
      const [oldest] = this.#issued.keys();
      if (oldest === undefined) break;
      this.#issued.delete(oldest);
    }
    return confirmation;
  }

  /**
   * True once: when `confirmation` was issued for this channel and this input and has not expired.
   * Spent whatever the outcome, so a wrong guess cannot be followed by the right write.
   */
  redeem(confirmation: string | null, channel: string, input: unknown): boolean {
    if (confirmation === null) return false;
    const issued = this.#issued.get(confirmation);
    if (issued === undefined) return false;
    this.#issued.delete(confirmation);
    if (issued.expiresAt < this.#now() || issued.channel !== channel) return false;
    const expected = Buffer.from(issued.digest, 'hex');
    const given = Buffer.from(writeDigest(channel, input), 'hex');
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** Forgets a confirmation the user declined or never answered. */
  withdraw(confirmation: string): void {
    this.#issued.delete(confirmation);
  }
}
