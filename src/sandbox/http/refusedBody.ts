/**
 * A body refused for its size (413) is read to its end and thrown away, on a connection kept
 * open, instead of the connection being closed under a client still sending it. Closed, the
 * client's next write meets a reset and fetch, axios or curl (`Send failure: Broken pipe`)
 * fail before reading the answer that was already on its way. Drained, every client reads the
 * 413, and the connection serves the next request. What a client keeps sending past
 * DRAIN_MAX_BYTES is not read: the connection is cut then.
 */
import type { IncomingMessage } from 'node:http';

const DRAIN_MAX_BYTES = 64 * 1024 * 1024;

export function drainRefusedBody(incoming: IncomingMessage): void {
  if (incoming.complete) return;
  let drained = 0;
  incoming.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_MAX_BYTES) incoming.socket.destroy();
  });
  incoming.resume();
}
