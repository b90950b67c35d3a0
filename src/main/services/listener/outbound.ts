/**
 * One outgoing HTTP request of the listener (a forward or a replay): its status, how long
 * it took, and the start of the answer, never more than an excerpt in memory. A failure to
 * connect is a result too, not a throw.
 */
import { performance } from 'node:perf_hooks';

export interface OutboundRequest {
  url: string;
  method: string;
  headers: [string, string][];
  body: Buffer | null;
  timeoutMs: number;
}

export interface OutboundResult {
  status: number | null;
  durationMs: number;
  excerpt: string | null;
  error: string | null;
}

export const EXCERPT_BYTES = 2048;

/** Headers that belong to one connection, not to the message: never copied onto another. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'host',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'proxy-connection',
  'proxy-authorization',
]);

export function isHopByHop(name: string): boolean {
  return HOP_BY_HOP.has(name.toLowerCase());
}

async function excerptOf(response: Response): Promise<string> {
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop early cancels the stream: the rest of a large answer is never read.
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= EXCERPT_BYTES) break;
  }
  return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
}

export async function sendOutbound(request: OutboundRequest): Promise<OutboundResult> {
  const started = performance.now();
  try {
    const headers = new Headers();
    for (const [name, value] of request.headers) {
      if (!isHopByHop(name)) headers.append(name, value);
    }
    const response = await fetch(request.url, {
      method: request.method,
      headers,
      body: request.body === null || request.method === 'GET' || request.method === 'HEAD' ? null : request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    const excerpt = await excerptOf(response);
    return { status: response.status, durationMs: performance.now() - started, excerpt, error: null };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    const message =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${request.timeoutMs} ms`
        : `${error instanceof Error ? error.message : String(error)}${cause}`;
    return { status: null, durationMs: performance.now() - started, excerpt: null, error: message };
  }
}
