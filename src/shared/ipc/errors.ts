/**
 * The one error shape that crosses IPC. Every failure in main — refused sender, bad input,
 * a bank error, a bug — reaches the renderer as this plain, serializable object: a code to
 * branch on, a sentence a person can read, and what they can do about it. Never a stack
 * trace, never a secret.
 *
 * It is a plain object rather than an Error on purpose: Electron's contextBridge copies only
 * the `message` of an Error, but copies a plain object whole.
 */
import { z } from 'zod';

export const IPC_ERROR_CODES = [
  /** The input did not match the contract; `field` names the first offending field. */
  'invalid_input',
  /** The call came from somewhere other than our own window's main frame and origin. */
  'forbidden',
  /** No such operation in the contract. */
  'unknown_channel',
  /** The feature behind this operation is not built or not running yet. */
  'not_available',
  /** A write against a Production profile without `confirmProduction: true`. */
  'confirmation_required',
  /** The object, profile or job does not exist. */
  'not_found',
  /** The request conflicts with the current state (a sync already running, a name taken). */
  'conflict',
  /** The bank refused the credentials of the profile. */
  'unauthorized',
  /** The bank answered with an error. */
  'bank_error',
  /** The bank cannot be reached; cached data is still available. */
  'offline',
  /** The bank asked us to slow down. */
  'rate_limited',
  /** The OS keychain is missing or refused access. */
  'keychain_unavailable',
  /** The listener's port is taken. */
  'port_in_use',
  /** The user or the app cancelled the operation. */
  'cancelled',
  /** A local file could not be read or written (disk full, permissions). */
  'storage_error',
  /** Main produced an answer that does not match the contract: a bug in Ledgerdesk. */
  'invalid_output',
  /** Anything else: a bug in Ledgerdesk. */
  'internal',
] as const;
export type IpcErrorCode = (typeof IPC_ERROR_CODES)[number];

export const ipcError = z.object({
  code: z.enum(IPC_ERROR_CODES),
  /** One clear sentence. */
  message: z.string().min(1),
  /** The bank's HTTP status, when the error came from the bank. */
  status: z.number().int().optional(),
  /** Whether trying the same call again later can succeed. */
  retryable: z.boolean(),
  /** What the user can do, in a sentence ("Check the API key of profile Acme."). */
  action: z.string().optional(),
  /** The input field the error is about, as a dotted path ("request.file_id"). */
  field: z.string().optional(),
});
export type IpcError = z.infer<typeof ipcError>;

/** What the router answers for every call; the bridge unwraps it. */
export const ipcResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: ipcError }),
]);
export type IpcResult<Value = unknown> = { ok: true; value: Value } | { ok: false; error: IpcError };

/** Marks the objects the bridge rejects with, so the renderer can tell them apart. */
export const LEDGERDESK_ERROR_NAME = 'LedgerdeskError';

/** What a bridge method rejects with: the error shape, plus `name` for recognition. */
export type LedgerdeskError = IpcError & { readonly name: typeof LEDGERDESK_ERROR_NAME };

export function isLedgerdeskError(value: unknown): value is LedgerdeskError {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    candidate['name'] === LEDGERDESK_ERROR_NAME &&
    typeof candidate['code'] === 'string' &&
    typeof candidate['message'] === 'string' &&
    typeof candidate['retryable'] === 'boolean'
  );
}

/** A sentence for any rejection reason: ours, an Error, or anything else. */
export function errorMessageOf(reason: unknown): string {
  if (isLedgerdeskError(reason)) return reason.message;
  if (reason instanceof Error && reason.message !== '') return reason.message;
  return 'Something went wrong. Please try again.';
}

/** Builds an IpcError, leaving out the optional fields that are not given. */
export function ipcErrorOf(
  code: IpcErrorCode,
  message: string,
  extra: { status?: number; retryable?: boolean; action?: string; field?: string } = {},
): IpcError {
  const error: IpcError = { code, message, retryable: extra.retryable ?? false };
  if (extra.status !== undefined) error.status = extra.status;
  if (extra.action !== undefined) error.action = extra.action;
  if (extra.field !== undefined) error.field = extra.field;
  return error;
}
