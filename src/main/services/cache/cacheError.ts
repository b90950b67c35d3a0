/** Failures of the offline cache, each with a sentence a person can act on. */
import { isReadOnlyRefusal } from '../migrations/readOnly.ts';
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';
export type CacheErrorKind = 'disk-full' | 'unreadable' | 'read-only' | 'bad-cursor' | 'closed';

export class CacheError extends Error {
  readonly kind: CacheErrorKind;
  constructor(kind: CacheErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CacheError';
    this.kind = kind;
  }

  get answer(): ContractAnswer {
    return this.kind === 'bad-cursor' ? { code: 'invalid_input', field: 'cursor' } : { code: 'storage_error' };
  }
}

/** SQLite's primary result codes we act on (extended codes carry them in the low byte). */
export const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
export const SQLITE_NOTADB = 26;

export function sqliteCodeOf(error: unknown): number | null {
  if (typeof error === 'object' && error !== null && 'errcode' in error && typeof error.errcode === 'number') {
    return error.errcode & 0xff;
  }
  return null;
}

/** A write failed because the disk (or the database's size limit) is full. */
function isDiskFull(error: unknown): boolean {
  return sqliteCodeOf(error) === SQLITE_FULL || (error as NodeJS.ErrnoException | null)?.code === 'ENOSPC';
}

/** Rethrows SQLite's "database or disk is full" (or a refused write) as a CacheError that says what to do. */
export function translateWriteError(error: unknown, file: string): never {
  if (isReadOnlyRefusal(error)) {
    throw new CacheError(
      'read-only',
      `The offline cache (${file}) is open read-only: its schema is one this build does not know, so nothing is written to it.`,
      { cause: error },
    );
  }
  if (isDiskFull(error)) {
    throw new CacheError(
      'disk-full',
      `The disk holding the offline cache (${file}) is full: nothing was lost, but new data cannot be kept until space is freed.`,
      { cause: error },
    );
  }
  throw error;
}
