/** Failures of the officer's record, each with a sentence a person can act on. */
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';
export type RecordErrorKind = 'unreadable' | 'locked' | 'read-only' | 'copy-mismatch' | 'invalid' | 'held' | 'closed';

export class RecordError extends Error {
  readonly kind: RecordErrorKind;
  constructor(kind: RecordErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RecordError';
    this.kind = kind;
  }

  get answer(): ContractAnswer {
    if (this.kind === 'invalid') return { code: 'invalid_input' };
    if (this.kind === 'held') return { code: 'conflict' };
    return { code: 'storage_error' };
  }
}
