/**
 * The services' errors as the contract's: each of the services' error classes carries its own
 * answer (code, field, action: src/shared/ipc/contractAnswer.ts), which is copied here, so this
 * file knows no service's classes; the router's generic mapping (errorMapping.ts) then builds
 * the one error shape from the result.
 */
import { contractAnswerOf } from '../../shared/ipc/contractAnswer.ts';
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

/**
 * A service's refusal as the contract's error: the answer its error carries (contractAnswer.ts),
 * copied; zod's and the runtime's RangeError, which carry none, by name; anything else returned
 * unchanged for the router, which calls it internal.
 */
export function translateServiceError(error: unknown): unknown {
  const fields = fieldsOf(error);
  const message = textOf(fields['message']) ?? 'The operation failed.';
  const answer = contractAnswerOf(error);
  if (answer !== null) {
    const { code, message: wording, ...extra } = answer;
    return new IpcFailure(code, wording ?? message, extra);
  }
  switch (fields['name']) {
    case 'ZodError':
    case '$ZodError': {
      const issue = zodIssue(fields);
      return new IpcFailure('invalid_input', issue.message, issue.field === undefined ? {} : { field: issue.field });
    }
    case 'RangeError':
      return new IpcFailure('invalid_input', message);
    default:
      return error;
  }
}
