/**
 * Checkpoints the listener's WAL from a worker thread. In WAL mode a commit is a write to
 * the log; the fsyncs happen at checkpoints, and on an ordinary disk they cost more than
 * everything else a request does. SQLite's automatic checkpoint runs them on the writer's
 * thread, inside whichever commit crosses the threshold, stalling every request behind it.
 * Here the writer's connection turns automatic checkpoints off and a second connection, in
 * its own thread, checkpoints passively (never blocking the writer) a few times a second.
 * If the worker cannot run, automatic checkpoints come back on: slower, never unbounded.
 */
import { DatabaseSync } from 'node:sqlite';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

interface CheckpointerData {
  role: 'wal-checkpointer';
  file: string;
  intervalMs: number;
}

export interface WalCheckpointer {
  stop(): Promise<void>;
}

function isCheckpointerData(data: unknown): data is CheckpointerData {
  return typeof data === 'object' && data !== null && (data as { role?: unknown }).role === 'wal-checkpointer';
}

/** The worker's side: checkpoint every intervalMs until told to stop. */
function runCheckpointer(data: CheckpointerData): void {
  const database = new DatabaseSync(data.file);
  database.exec('PRAGMA busy_timeout = 5000');
  const checkpoint = (): void => {
    try {
      database.exec('PRAGMA wal_checkpoint(PASSIVE)');
    } catch {
      // Busy or locked for a moment: the next round catches up.
    }
  };
  const timer = setInterval(checkpoint, data.intervalMs);
  parentPort?.once('message', () => {
    clearInterval(timer);
    checkpoint();
    database.close();
    parentPort?.close();
  });
}

if (!isMainThread && isCheckpointerData(workerData)) runCheckpointer(workerData);

/** Turn the writer's automatic checkpoints off and checkpoint `file` from a worker instead. */
export function startWalCheckpointer(writer: DatabaseSync, file: string, intervalMs = 250): WalCheckpointer {
  const data: CheckpointerData = { role: 'wal-checkpointer', file, intervalMs };
  const worker = new Worker(new URL(import.meta.url), { workerData: data });
  worker.unref();
  writer.exec('PRAGMA wal_autocheckpoint = 0');
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      resolve();
    });
  });
  worker.once('error', () => {
    if (writer.isOpen) writer.exec('PRAGMA wal_autocheckpoint = 1000');
  });
  return {
    async stop() {
      // Held by the process while it finishes, or the process could end mid-close.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
