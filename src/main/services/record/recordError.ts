/** Failures of the officer's record, each with a sentence a person can act on. */
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';

export type RecordErrorKind =
  | 'unreadable'
  | 'locked'
  | 'read-only'
  | 'copy-mismatch'
  | 'invalid'
  | 'held'
  | 'closed'
  /** Record archives (recordArchive*.ts): the file named exists, or does not verify; the folder is not empty. */
  | 'archive-exists'
  | 'not-moved'
  | 'folder-not-empty'
  | 'archive-does-not-verify'
  | 'import-failed';

export class RecordError extends Error {
  readonly kind: RecordErrorKind;
  constructor(kind: RecordErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RecordError';
    this.kind = kind;
  }

  get answer(): ContractAnswer {
    if (this.kind === 'invalid' || this.kind === 'archive-does-not-verify') return { code: 'invalid_input' };
    if (this.kind === 'held' || this.kind === 'archive-exists' || this.kind === 'folder-not-empty')
      return { code: 'conflict' };
    return { code: 'storage_error' };
  }
}
