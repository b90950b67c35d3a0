/**
 * X-Idempotency-Key (conventions.md): the same key with the same request answers the first
 * answer again and creates nothing new; the same key with a different request is a conflict.
 * Handlers run synchronously against SQLite, so check, work and record cannot interleave.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { RequestProblem } from '../requestProblem.ts';
import type { SandboxContext } from '../sandboxContext.ts';
import { inTransaction } from '../store/database.ts';
import { JSON_CONTENT_TYPE, type Answer } from './answer.ts';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

function requestHashOf(request: FastifyRequest): string {
  const hash = createHash('sha256');
  hash.update(request.headers['content-type'] ?? '');
  hash.update('\n');
  hash.update(Buffer.isBuffer(request.body) ? request.body : JSON.stringify(request.body ?? null));
  return hash.digest('hex');
}

export function idempotent(
  context: SandboxContext,
  request: FastifyRequest,
  route: string,
  work: () => Answer,
): Answer {
  const header = request.headers['x-idempotency-key'];
  if (header === undefined) return work();
  const key = Array.isArray(header) ? (header[0] ?? '') : header;
  if (!KEY_PATTERN.test(key)) {
    throw new RequestProblem(400, 'X-Idempotency-Key must be 1 to 255 visible ASCII characters.');
  }
  const hash = requestHashOf(request);
  return inTransaction(context.database, () => {
    const earlier = context.database
      .prepare('SELECT request_hash, status, body FROM idempotency WHERE idempotency_key = ? AND route = ?')
      .get(key, route);
    if (earlier !== undefined) {
      if (earlier.request_hash !== hash) {
        throw new RequestProblem(
          409,
          `X-Idempotency-Key ${JSON.stringify(key)} was already used for a different ${route} request.`,
        );
      }
      return {
        status: Number(earlier.status),
        body: String(earlier.body),
        contentType: JSON_CONTENT_TYPE,
        headers: { 'idempotent-replayed': 'true' },
      };
    }
    const answer = work();
    if (answer.status >= 200 && answer.status < 300) {
      context.database
        .prepare('INSERT INTO idempotency (idempotency_key, route, request_hash, status, body) VALUES (?, ?, ?, ?, ?)')
        .run(key, route, hash, answer.status, String(answer.body));
    }
    return answer;
  });
}
