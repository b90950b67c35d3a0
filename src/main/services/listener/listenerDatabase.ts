/**
 * Opening a database file for the listener when it runs on its own (the command line, tests,
 * the benchmark). In the app the listener is handed the cache's open database instead. WAL
 * lets readers (the UI's queries, an export) run while requests are written;
 * synchronous=NORMAL survives a crash of the app (not of the OS) without a flush per
 * commit; the WAL is checkpointed from a worker thread (walCheckpointer.ts).
 */
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { startWalCheckpointer } from './walCheckpointer.ts';

export const LISTENER_DATABASE_FILE = 'listener.sqlite';

export interface ListenerDatabase {
  readonly database: DatabaseSync;
  readonly file: string;
  /** Stop the checkpointer, then close (which checkpoints what is left). */
  close(): Promise<void>;
}

export function openListenerDatabase(file: string): ListenerDatabase {
  // The folder 0700 and the file 0600 from the first write (review N9): SQLite gives its -wal
  // and -shm files the database file's mode.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  const database = new DatabaseSync(file);
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = NORMAL');
  database.exec('PRAGMA busy_timeout = 5000');
  const checkpointer = startWalCheckpointer(database, file);
  let closed: Promise<void> | null = null;
  return {
    database,
    file,
    close() {
      closed ??= (async () => {
        await checkpointer.stop();
        database.close();
      })();
      return closed;
    },
  };
}
