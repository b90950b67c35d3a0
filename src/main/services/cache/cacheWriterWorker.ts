/**
 * The cache writer's thread: its own SQLite connection, running write plans (writeBatch.ts)
 * in transactions, so bulk sync writes never hold up the main thread (windows, IPC, the
 * listener). It seals each new row just before storing it, with the sealing key that comes
 * with the plan (WriteBatch.sealed: a KeyObject, passed within this process, never written
 * or logged); the data key and the hashing keys stay on the main thread. Messages of one
 * sync already queued when this thread gets to them are written together (writerQueue.ts).
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { attachRecord, type AttachedRecord } from '../record/recordAttach.ts';
import { configure } from './cacheFile.ts';
import { Statements } from './statements.ts';
import { executeGroup } from './writeBatch.ts';
import { WriterQueue, type WriteMessage, type WriterReply } from './writerQueue.ts';

type Message = WriteMessage | { id: number; close: true };

const { file, sizeLimitBytes, record } = workerData as {
  file: string;
  sizeLimitBytes?: number;
  /** Absent when the thread is started without a record (the worker's own tests). */
  record?: AttachedRecord | null;
};
const database = new DatabaseSync(file);
configure(database, sizeLimitBytes);
// The same schemas as the main connection: a sweep's deletes mark reviews unlisted (recordAttach.ts).
if (record !== undefined && record !== null) attachRecord(database, record);
const statements = new Statements(database);
const queue = new WriterQueue((pages) => executeGroup(database, statements, pages));

function reply(message: WriterReply): void {
  parentPort?.postMessage(message);
}

/**
 * Takes `first` and the messages queued behind it that may join it (same stream, room left);
 * returns them, and the first queued message that may not join, to be handled next.
 */
function gather(port: MessagePort, first: WriteMessage): { group: WriteMessage[]; held: Message | undefined } {
  const group = [first];
  let pages = first.pages.length;
  for (;;) {
    if (first.stream === undefined) return { group, held: undefined };
    const next = receiveMessageOnPort(port)?.message as Message | undefined;
    if (next === undefined) return { group, held: undefined };
    if ('close' in next || !WriterQueue.joins(first, next, pages)) return { group, held: next };
    group.push(next);
    pages += next.pages.length;
  }
}

function handle(port: MessagePort, message: Message): void {
  let current: Message | undefined = message;
  while (current !== undefined) {
    if ('close' in current) {
      database.close();
      reply({ id: current.id, kept: [] });
      return;
    }
    const { group, held } = gather(port, current);
    for (const answer of queue.run(group)) reply(answer);
    current = held;
  }
}

const port = parentPort;
if (port !== null) {
  port.on('message', (message: Message) => {
    handle(port, message);
  });
}
