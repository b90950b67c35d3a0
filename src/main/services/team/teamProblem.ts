/**
 * Every failure of team mode as one sentence an officer can act on, with a kind the CLI and
 * IPC map to their own codes. Never carries a secret (the login's password, a key, an invite's
 * one-time secret): messages are built from names and server sentences only.
 */
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';
import type { IpcErrorCode } from '../../../shared/ipc/errors.ts';

export type TeamProblemKind =
  /** The server cannot be reached (down, slow, no network): actions stay queued. */
  | 'unreachable'
  /** The server's certificate is not signed by the team's CA, or does not name the server. */
  | 'untrusted-server'
  /** The login or its secret was refused (an invite used twice lands here). */
  | 'login-refused'
  /** The server refused the request (a rule, a grant, row-level security). */
  | 'refused'
  /** The history does not verify: tampering, or a mirror that disagrees with the server. */
  | 'tampered'
  /** A bad argument or file (an unreadable invite, an unknown item, a missing note). */
  | 'invalid'
  /** This laptop is not in a team (no `ledger team join` yet). */
  | 'not-joined';

/** The contract's code for each kind; the rest (refused, tampered, untrusted server) are conflicts. */
const TEAM_PROBLEM_CODES: Partial<Record<TeamProblemKind, IpcErrorCode>> = {
  unreachable: 'offline',
  invalid: 'invalid_input',
  'not-joined': 'not_available',
  'login-refused': 'unauthorized',
};

export class TeamProblem extends Error {
  readonly kind: TeamProblemKind;
  /** The first event that does not verify, when kind is 'tampered'. */
  readonly seq: number | null;

  constructor(kind: TeamProblemKind, message: string, seq: number | null = null) {
    super(message);
    this.name = 'TeamProblem';
    this.kind = kind;
    this.seq = seq;
  }

  /** A down server is "offline" (actions stay queued); a refused login "unauthorized". */
  get answer(): ContractAnswer {
    return { code: TEAM_PROBLEM_CODES[this.kind] ?? 'conflict', retryable: this.kind === 'unreachable' };
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'EAI_AGAIN',
]);
const TLS_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/** A driver or network failure as a TeamProblem (a TeamProblem passes through). */
export function teamProblemOf(error: unknown, server: string): TeamProblem {
  if (error instanceof TeamProblem) return error;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const message = error instanceof Error ? error.message : String(error);
  if (NETWORK_CODES.has(code) || /timeout|terminated|Connection terminated|ECONNREFUSED/i.test(message))
    return new TeamProblem(
      'unreachable',
      `The team server ${server} cannot be reached (${message}); your actions stay queued.`,
    );
  if (TLS_CODES.has(code) || /certificate/i.test(message))
    return new TeamProblem(
      'untrusted-server',
      `The team server ${server} is not the one the invite names: its certificate is refused (${message}).`,
    );
  if (code === '28P01' || code === '28000')
    return new TeamProblem('login-refused', `The team server ${server} refused the login (${message}).`);
  if (
    code === '42501' ||
    code === '55000' ||
    code === '23505' ||
    code === '22023' ||
    code === '40001' ||
    code === '42710'
  )
    return new TeamProblem('refused', `The team server refused: ${message}.`);
  return new TeamProblem('refused', `The team server answered with an error: ${message}.`);
}
