/**
 * Every thrown thing becomes the one error shape of the contract: a code, one clear
 * sentence, whether retrying helps, and what the user can do. Never a stack trace; the
 * message is scrubbed of secrets and cut to its first line.
 *
 * Service errors are read by duck typing (this file imports no service): an error carrying
 * a `code` of the contract keeps it; one carrying an HTTP `status` is a bank error; Node's
 * network and file-system codes become `offline` and `storage_error`.
 */
import { IPC_ERROR_CODES, type IpcError, type IpcErrorCode, ipcErrorOf } from '../../shared/ipc/errors.ts';
import { scrubText } from './secretScrubber.ts';

const MESSAGE_MAX = 500;
const KNOWN_CODES = new Set<string>(IPC_ERROR_CODES);

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ERR_NETWORK',
  'ERR_SOCKET_CONNECTION_TIMEOUT',
]);
const STORAGE_CODES = new Set(['ENOSPC', 'EACCES', 'EPERM', 'EROFS', 'EDQUOT', 'EMFILE', 'EBUSY', 'EIO']);

function field(thrown: unknown, name: string): unknown {
  return typeof thrown === 'object' && thrown !== null ? (thrown as Record<string, unknown>)[name] : undefined;
}

function stringField(thrown: unknown, name: string): string | undefined {
  const value = field(thrown, name);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The first line of a message, scrubbed and bounded; never a stack. */
export function cleanMessage(raw: string, knownSecrets: readonly string[]): string {
  const firstLine = raw.split(/\r?\n/, 1)[0]?.trim() ?? '';
  const scrubbed = scrubText(firstLine, knownSecrets).text;
  return scrubbed.length > MESSAGE_MAX ? scrubbed.slice(0, MESSAGE_MAX - 1) + '…' : scrubbed;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return trimmed;
  const capitalized = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capitalized) ? capitalized : capitalized + '.';
}

function codeForStatus(status: number): { code: IpcErrorCode; retryable: boolean } {
  if (status === 401 || status === 403) return { code: 'unauthorized', retryable: false };
  if (status === 404) return { code: 'not_found', retryable: false };
  if (status === 409) return { code: 'conflict', retryable: false };
  if (status === 429) return { code: 'rate_limited', retryable: true };
  if (status === 502 || status === 503 || status === 504) return { code: 'bank_error', retryable: true };
  return { code: 'bank_error', retryable: false };
}

export interface ErrorContext {
  /** The operation that failed, e.g. `webhooks.create`. */
  channel: string;
  knownSecrets?: readonly string[];
}

export function toIpcError(thrown: unknown, context: ErrorContext): IpcError {
  const secrets = context.knownSecrets ?? [];
  const rawMessage = stringField(thrown, 'message') ?? (typeof thrown === 'string' ? thrown : undefined);
  const message = rawMessage === undefined ? undefined : sentence(cleanMessage(rawMessage, secrets));
  const rawAction = stringField(thrown, 'action');
  const action = rawAction === undefined ? undefined : sentence(cleanMessage(rawAction, secrets));
  const fieldName = stringField(thrown, 'field');
  const statusValue = field(thrown, 'status');
  const status = typeof statusValue === 'number' && Number.isInteger(statusValue) ? statusValue : undefined;
  const retryableValue = field(thrown, 'retryable');
  const code = stringField(thrown, 'code');
  const extra = {
    ...(status === undefined ? {} : { status }),
    ...(action === undefined ? {} : { action }),
    ...(fieldName === undefined ? {} : { field: fieldName }),
  };

  if (code !== undefined && KNOWN_CODES.has(code)) {
    return ipcErrorOf(code as IpcErrorCode, message ?? `${context.channel} failed.`, {
      ...extra,
      retryable: typeof retryableValue === 'boolean' ? retryableValue : false,
    });
  }
  if (status !== undefined && status >= 400) {
    const mapped = codeForStatus(status);
    return ipcErrorOf(mapped.code, message ?? `The bank answered ${status}.`, {
      ...extra,
      retryable: typeof retryableValue === 'boolean' ? retryableValue : mapped.retryable,
    });
  }
  if (code !== undefined && NETWORK_CODES.has(code)) {
    return ipcErrorOf('offline', 'The bank cannot be reached; cached data is still shown.', {
      ...extra,
      retryable: true,
      action: action ?? 'Check your network connection, then try again.',
    });
  }
  if (code !== undefined && STORAGE_CODES.has(code)) {
    return ipcErrorOf('storage_error', message ?? 'A local file could not be written.', {
      ...extra,
      retryable: false,
      action: action ?? 'Check free disk space and folder permissions.',
    });
  }
  return ipcErrorOf(
    'internal',
    message === undefined ? `${context.channel} failed unexpectedly.` : `${context.channel} failed: ${message}`,
    { ...extra, retryable: false },
  );
}
