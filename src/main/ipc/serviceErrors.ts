/**
 * The services' own error classes, translated into the contract's error codes. Recognized by
 * `name` (duck typing), so the IPC layer depends on no service's internals; the router's
 * generic mapping (errorMapping.ts) then builds the one error shape from the result.
 */
import type { IpcErrorCode } from '../../shared/ipc/errors.ts';

/** What a handler throws to answer a specific error code. */
export class IpcFailure extends Error {
  readonly code: IpcErrorCode;
  readonly retryable: boolean;
  readonly action?: string;
  readonly field?: string;
  readonly status?: number;

  constructor(
    code: IpcErrorCode,
    message: string,
    extra: { retryable?: boolean; action?: string; field?: string; status?: number; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'IpcFailure';
    this.code = code;
    this.retryable = extra.retryable ?? false;
    if (extra.action !== undefined) this.action = extra.action;
    if (extra.field !== undefined) this.field = extra.field;
    if (extra.status !== undefined) this.status = extra.status;
  }
}

const BANK_KIND_CODES: Record<string, IpcErrorCode> = {
  unauthorized: 'unauthorized',
  forbidden: 'unauthorized',
  'not-found': 'not_found',
  conflict: 'conflict',
  'rate-limited': 'rate_limited',
  'bank-offline': 'offline',
  unavailable: 'offline',
  'gateway-timeout': 'offline',
  timeout: 'offline',
  unreachable: 'offline',
  cancelled: 'cancelled',
};

function fieldsOf(error: unknown): Record<string, unknown> {
  return typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The first issue of a zod error as field and sentence. */
function zodIssue(error: Record<string, unknown>): { field?: string; message: string } {
  const issues = error['issues'];
  if (Array.isArray(issues) && issues.length > 0) {
    const first = issues[0] as { path?: unknown[]; message?: string };
    const field = Array.isArray(first.path) && first.path.length > 0 ? first.path.map(String).join('.') : undefined;
    const message = `${field === undefined ? '' : `${field}: `}${first.message ?? 'is not valid'}`;
    return field === undefined ? { message } : { field, message };
  }
  return { message: 'The input is not valid.' };
}

/** Translates a known service error; anything else is returned unchanged for the router. */
export function translateServiceError(error: unknown): unknown {
  const fields = fieldsOf(error);
  const name = fields['name'];
  const message = textOf(fields['message']) ?? 'The operation failed.';
  switch (name) {
    case 'BankError': {
      const kind = textOf(fields['kind']) ?? '';
      const status = typeof fields['status'] === 'number' ? fields['status'] : undefined;
      // A failure with a person's wording (the bank out of reach, the local sandbox down)
      // reaches the window in those words, not as an endpoint and an address.
      const people = fieldsOf(fields['forPeople']);
      const remedy = textOf(people['action']) ?? textOf(fields['remedy']);
      return new IpcFailure(BANK_KIND_CODES[kind] ?? 'bank_error', textOf(people['message']) ?? message, {
        retryable: fields['retryable'] === true,
        ...(remedy === undefined ? {} : { action: remedy }),
        ...(status === undefined ? {} : { status }),
      });
    }
    case 'BankRequestError': {
      const status = typeof fields['status'] === 'number' ? fields['status'] : undefined;
      return new IpcFailure(status === 401 || status === 403 ? 'unauthorized' : 'bank_error', message, {
        ...(status === undefined ? {} : { status }),
        retryable: status !== undefined && status >= 500,
      });
    }
    case 'WebhookAddressRefused':
      return new IpcFailure('invalid_input', message, { field: 'url' });
    case 'CaBundleProblem':
      return new IpcFailure('invalid_input', message, { field: 'caFile' });
    case 'ProfileNotFound':
      return new IpcFailure('not_found', message, { field: 'profileId' });
    case 'ProfileRefused': {
      const field = textOf(fields['field']);
      return new IpcFailure('conflict', message, field === undefined ? {} : { field });
    }
    case 'ProfileNotReady':
      return new IpcFailure('not_available', message, { retryable: true });
    case 'ProductionWriteNotConfirmed':
      return new IpcFailure('confirmation_required', message, {
        field: 'confirmProduction',
        action: 'Confirm that you mean to change the Production bank, then send it again.',
      });
    case 'MissingCredentials':
      return new IpcFailure('unauthorized', message, { action: 'Set the secret of this profile in Settings.' });
    case 'SecretNeedsReentry':
      return new IpcFailure('unauthorized', message, {
        action: "Enter the secret for the profile's current address in Settings.",
      });
    case 'InvalidSecret':
      return new IpcFailure('invalid_input', message, { field: 'secret' });
    case 'KeychainUnavailable': {
      const remedy = textOf(fieldsOf(fields['status'])['remedy']) ?? textOf(fields['remedy']);
      return new IpcFailure('keychain_unavailable', message, remedy === undefined ? {} : { action: remedy });
    }
    case 'ReviewProblem': {
      const field = textOf(fields['field']);
      const kind = textOf(fields['kind']);
      return new IpcFailure(kind === 'no-such-rule' || kind === 'not-cached' ? 'not_found' : 'invalid_input', message, {
        ...(field === undefined ? {} : { field }),
      });
    }
    case 'ScreeningProblem':
      // No list loaded: the window says so and how to load one (services/screening/screeningService.ts).
      return new IpcFailure('not_available', message, {
        action:
          'Import a list first: ledger screening import FILE (OFAC SDN.XML, its CSV set, or an OpenSanctions export).',
      });
    case 'TeamProblem': {
      // Team mode (src/main/services/team/teamProblem.ts): a down server is "offline", actions stay queued.
      const kind = textOf(fields['kind']);
      const code: IpcErrorCode =
        kind === 'unreachable'
          ? 'offline'
          : kind === 'invalid'
            ? 'invalid_input'
            : kind === 'not-joined'
              ? 'not_available'
              : kind === 'login-refused'
                ? 'unauthorized'
                : 'conflict';
      return new IpcFailure(code, message, { retryable: kind === 'unreachable' });
    }
    case 'SyncBusy':
      return new IpcFailure('conflict', message, { retryable: true });
    case 'RecordError': {
      const kind = textOf(fields['kind']);
      if (kind === 'invalid') return new IpcFailure('invalid_input', message);
      if (kind === 'held') return new IpcFailure('conflict', message);
      return new IpcFailure('storage_error', message);
    }
    case 'CacheError': {
      const kind = textOf(fields['kind']);
      if (kind === 'disk-full') return new IpcFailure('storage_error', message);
      if (kind === 'bad-cursor') return new IpcFailure('invalid_input', message, { field: 'cursor' });
      return new IpcFailure('storage_error', message);
    }
    case 'PortTakenError': {
      const next = typeof fields['nextFreePort'] === 'number' ? fields['nextFreePort'] : null;
      return new IpcFailure('port_in_use', message, {
        field: 'port',
        ...(next === null ? {} : { action: `Port ${next} is free: start the listener there.` }),
      });
    }
    case 'ExposureRefusedError':
      return new IpcFailure('invalid_input', message, { field: 'allowNonLoopback' });
    case 'TargetRefused': {
      const origin = textOf(fields['origin']);
      return new IpcFailure('invalid_input', message, {
        ...(origin === undefined
          ? {}
          : { action: `If ${origin} is your own handler, allow it in Settings → Listener defaults.` }),
      });
    }
    case 'NothingToReplayError':
      return new IpcFailure('not_found', message);
    case 'ZodError':
    case '$ZodError': {
      const issue = zodIssue(fields);
      return new IpcFailure('invalid_input', issue.message, issue.field === undefined ? {} : { field: issue.field });
    }
    case 'SchemaViolation': {
      // A service's own check of a write's input (the same shared rules as the contract):
      // answer like the router's input check, naming the field so the form can show it there.
      const problems = Array.isArray(fields['problems'])
        ? fields['problems'].filter((problem): problem is string => typeof problem === 'string')
        : [];
      const field = textOf(fields['field']);
      return new IpcFailure('invalid_input', problems.length > 0 ? problems.slice(0, 3).join('; ') : message, {
        action: 'Correct the highlighted field and try again.',
        ...(field === undefined ? {} : { field }),
      });
    }
    case 'RangeError':
      return new IpcFailure('invalid_input', message);
    case 'TriggerNeedsConfirmation':
      return new IpcFailure('confirmation_required', message, {
        field: 'confirmRemote',
        action: 'Confirm that you mean to create and move objects at this remote bank, then trigger again.',
      });
    case 'TriggerRefused':
      return new IpcFailure('not_available', message);
    case 'TriggerProblem':
      return new IpcFailure('conflict', message);
    case 'ScenarioFileProblem':
      return new IpcFailure('invalid_input', message, { field: 'source' });
    default:
      return error;
  }
}
