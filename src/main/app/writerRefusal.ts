/**
 * What the desktop app says when it cannot start because another Ledgerdesk is the data
 * folder's writer (dataFolderLock.ts): web mode (`npm run serve`), with the address it is open
 * at, or another desktop app. Electron-free, so the wording is tested in Node; index.ts only
 * shows it in a native dialog and quits.
 */
import { DataFolderInUse } from './dataFolderLock.ts';

const LOOPBACK_ORIGIN = /^http:\/\/(127\.0\.0\.1|\[::1\]):\d{1,5}$/;

export interface WriterRefusal {
  title: string;
  message: string;
  detail: string;
  /**
   * Web mode's address, for an "Open in the browser" button: only a loopback origin (the lock
   * file is ours, but a button opens nothing it was not meant to); null otherwise.
   */
  address: string | null;
}

/** The refusal to show for a start that failed with `error`, or null when it is another failure. */
export function writerRefusalOf(error: unknown): WriterRefusal | null {
  if (!(error instanceof DataFolderInUse)) return null;
  return {
    title: 'Ledgerdesk is already running',
    message:
      error.address === null
        ? 'Another Ledgerdesk is already working on this data folder.'
        : `Ledgerdesk is already running in web mode, open at ${error.address}.`,
    detail: `${error.message} Only one Ledgerdesk at a time writes to a data folder, so nothing is lost or written twice.`,
    address: error.address !== null && LOOPBACK_ORIGIN.test(error.address) ? error.address : null,
  };
}
