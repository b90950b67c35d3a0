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
import type { WriterReply } from './cacheWriter.ts';
import { executeGroup, type WriteBatch } from './writeBatch.ts';

const { file, sizeLimitBytes } = workerData as { file: string; sizeLimitBytes?: number };
const database = new DatabaseSync(file);
configure(database, sizeLimitBytes);
const statements = new Statements(database);

function reply(message: WriterReply): void {
  parentPort?.postMessage(message);
}

parentPort?.on('message', (message: { id: number; pages: WriteBatch[][] } | { id: number; close: true }) => {
  if ('close' in message) {
    database.close();
    reply({ id: message.id, kept: [] });
    return;
  }
  const outcome = executeGroup(database, statements, message.pages);
  if (outcome.error === undefined) {
    reply({ id: message.id, kept: outcome.kept });
    return;
  }
  const { error } = outcome;
  reply({
    id: message.id,
    kept: outcome.kept,
    error: { message: error.message, errcode: sqliteCodeOf(error) },
  });
});
