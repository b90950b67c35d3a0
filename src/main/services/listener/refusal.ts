/**
 * A request the listener refused before reading it (its guard: a Host it does not answer to,
 * a web page's request), in words for the person at the terminal: what was refused and the
 * option that would allow it. Names only what the headers said; nothing of it is kept.
 */
import type { GuardedHeaders } from '../../../shared/security/localServerGuard.ts';

export interface Refusal {
  /** ISO 8601 with milliseconds. */
  time: string;
  status: number;
  reason: string;
  /** The command-line option that would let such a request in; null when none should. */
  remedy: string | null;
}

/** At most this much of a header is quoted: enough to recognize it, never a flood. */
const QUOTED = 100;

function quoted(text: string): string {
  // Printable ASCII only: a header cannot move the terminal's cursor or colour the line.
  const clean = text.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > QUOTED ? `${clean.slice(0, QUOTED)}…` : clean;
}

function firstOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function describeRefusal(status: number, headers: GuardedHeaders, now: Date = new Date()): Refusal {
  const time = now.toISOString();
  if (status === 421) {
    const host = headers.host;
    if (host === undefined) return { time, status, reason: 'The request has no Host header', remedy: null };
    const name = quoted(host);
    return { time, status, reason: `Host ${name} is not allowed`, remedy: `--allow-host ${name}` };
  }
  const origin = headers.origin;
  if (origin !== undefined) {
    const name = quoted(origin);
    return { time, status, reason: `A web page at ${name} made it`, remedy: `--allow-origin ${name}` };
  }
  const site = firstOf(headers['sec-fetch-site']);
  return {
    time,
    status,
    reason: `A web page made it (Sec-Fetch-Site ${quoted(site ?? '?')}, no Origin)`,
    remedy: null,
  };
}

/** `15:06:08.469  421  Host tunnel.example is not allowed: add --allow-host tunnel.example (not kept)` */
export function refusalLineOf(refusal: Refusal): string {
  const remedy = refusal.remedy === null ? 'refused' : `add ${refusal.remedy}`;
  return `${refusal.time.slice(11, 23)}  refused ${String(refusal.status)}  ${refusal.reason}: ${remedy} (not kept)`;
}
