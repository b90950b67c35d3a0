/**
 * Errors as the UI shows them. The bridge rejects with one plain shape
 * `{ code, message, status?, retryable, action?, field? }`; anything else (a bug, a thrown
 * Error) is turned into the same shape so every screen can show a sentence and, when the
 * error is about an input, put it beside that field.
 */

export interface UiError {
  code: string;
  message: string;
  retryable: boolean;
  status?: number;
  action?: string;
  /** Dotted path of the input the error is about ("request.file_id"). */
  field?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function uiErrorOf(reason: unknown): UiError {
  if (isRecord(reason) && typeof reason['code'] === 'string' && typeof reason['message'] === 'string') {
    const error: UiError = {
      code: reason['code'],
      message: reason['message'],
      retryable: reason['retryable'] === true,
    };
    if (typeof reason['status'] === 'number') error.status = reason['status'];
    if (typeof reason['action'] === 'string') error.action = reason['action'];
    if (typeof reason['field'] === 'string') error.field = reason['field'];
    return error;
  }
  if (reason instanceof Error) return { code: 'internal', message: reason.message, retryable: false };
  return { code: 'internal', message: 'Something went wrong. Please try again.', retryable: false };
}

/** The service behind this part of the API is not built or not running yet. */
export function isNotAvailable(error: UiError | null): boolean {
  return error?.code === 'not_available' || error?.code === 'unknown_channel';
}

/** The last segment of a dotted field path: `request.file_id` → `file_id`. */
export function fieldNameOf(error: UiError): string | null {
  if (error.field === undefined || error.field === '') return null;
  const parts = error.field.split('.');
  return parts[parts.length - 1] ?? null;
}

/** "message. action" as one readable line. */
export function sentenceOf(error: UiError): string {
  if (error.action === undefined || error.message.includes(error.action)) return error.message;
  return `${error.message} ${error.action}`;
}
