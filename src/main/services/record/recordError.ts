/** Failures of the officer's record, each with a sentence a person can act on. */
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
}
