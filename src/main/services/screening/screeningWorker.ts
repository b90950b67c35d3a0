/**
 * A screening thread: holds one list's screener (its blocking index built once) and scores
 * batches of subjects against it, so screening 100,000 applicants never holds up the main
 * thread (windows, IPC, the listener). It is given only public list entries and the subjects'
 * names and facts; it holds no key and opens no database.
 */
import { parentPort } from 'node:worker_threads';
import { screenBatch, type ScreeningRequest } from './screeningBatch.ts';
import { Screener } from '../../../shared/screening/screener.ts';

let screener: Screener | null = null;

parentPort?.on('message', (message: ScreeningRequest) => {
  try {
    if (message.type === 'list') {
      screener = new Screener(message.entries, { threshold: message.threshold });
      parentPort?.postMessage({ id: message.id, type: 'ready' });
      return;
    }
    if (screener === null) throw new Error('The screening thread was given subjects before a list.');
    parentPort?.postMessage({ id: message.id, type: 'results', results: screenBatch(screener, message.subjects) });
  } catch (error) {
    parentPort?.postMessage({
      id: message.id,
      type: 'error',
      message: error instanceof Error ? error.message : String(error),
    });
  }
});
