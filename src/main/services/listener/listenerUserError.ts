/**
 * A mistake of the user's (an unknown webhook or request, no forward address, the listener not
 * started), with the IPC code it answers (review I4): never `internal`, which means a bug.
 */
export class ListenerUserError extends Error {
  readonly code: 'not_found' | 'invalid_input';
  readonly field?: string;
  constructor(code: 'not_found' | 'invalid_input', message: string, field?: string) {
    super(message);
    this.name = 'ListenerUserError';
    this.code = code;
    if (field !== undefined) this.field = field;
  }
}
