/**
 * The cache writer's thread: its own SQLite connection, running write plans (writeBatch.ts)
 * in transactions, so bulk sync writes never hold up the main thread (windows, IPC, the
 * listener). It holds no key: rows arrive sealed.
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { configure } from './cacheFile.ts';
import { sqliteCodeOf } from './cacheError.ts';
import { Statements } from './statements.ts';
import { executeBatches, type WriteBatch } from './writeBatch.ts';

const { file, sizeLimitBytes } = workerData as { file: string; sizeLimitBytes?: number };
const database = new DatabaseSync(file);
configure(database, sizeLimitBytes);
const statements = new Statements(database);

parentPort?.on('message', (message: { id: number; batches: WriteBatch[] } | { id: number; close: true }) => {
  if ('close' in message) {
    database.close();
    parentPort?.postMessage({ id: message.id, changes: [] });
    return;
  }
  try {
    parentPort?.postMessage({ id: message.id, changes: executeBatches(database, statements, message.batches) });
  } catch (error) {
    parentPort?.postMessage({
      id: message.id,
      error: { message: error instanceof Error ? error.message : String(error), errcode: sqliteCodeOf(error) },
    });
  }
});
