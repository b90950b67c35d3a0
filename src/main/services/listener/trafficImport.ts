/**
 * Reading an export back in: the JSONL file `npm run listen -- export FILE` (or the app's own
 * export) writes, one kept request a line, into another listener's log, so what the
 * standalone listener kept can be browsed, replayed and reconciled in the app.
 *
 * The file is checked in full before anything is kept (a wrong line is named by its number
 * and field, and nothing is imported); the import is one savepoint, all or nothing. A request
 * already kept (same arrival time, method, path and body) is not kept twice, so importing the
 * same file again changes nothing. An Authorization header is cut to its scheme again on the
 * way in: a hand-edited file cannot put a secret into the log.
 */
import { z } from 'zod';
import { VERDICTS, redactAuthorization } from './basicAuth.ts';
import { REQUEST_OUTCOMES, type ReceivedRequest } from './receivedRequest.ts';
import type { ArrivalRecord, RequestLog } from './requestLog.ts';

/** Lines longer than this are not an export of ours (a kept body is at most 256 KiB, base64 a third more). */
const LINE_MAX = 2 * 1024 * 1024;
const IMPORT_MAX_REQUESTS = 100_000;

const isoTime = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 time' });

/** One line of a JSONL export (trafficExport.ts: the ReceivedRequest as kept). Unknown fields are ignored. */
const exportedRequest = z.object({
  id: z.number().int().positive(),
  receivedAt: isoTime,
  method: z.string().max(32),
  path: z.string().max(8192),
  query: z.string().max(8192).nullable(),
  remoteAddress: z.string().max(64).nullable(),
  headers: z.array(z.tuple([z.string().min(1).max(256), z.string().max(16_384)])).max(500),
  verdict: z.enum(VERDICTS),
  presentedUser: z.string().max(256).nullable(),
  event: z.string().max(128).nullable(),
  objectId: z.string().max(128).nullable(),
  op: z.string().max(32).nullable(),
  bodyProblem: z.string().max(1024).nullable(),
  outcome: z.enum(REQUEST_OUTCOMES),
  status: z.number().int().min(100).max(599).nullable(),
  ruleId: z.string().max(128).nullable(),
  durationMs: z.number().min(0),
  occurrence: z.number().int().min(1),
  outOfOrder: z.boolean(),
  bodyBytes: z.number().int().min(0),
  bodyTruncated: z.boolean(),
  bodyText: z.string().nullable(),
  bodyBase64: z
    .string()
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, { message: 'must be base64' })
    .nullable(),
  declaredBytes: z.number().int().min(0).nullable(),
  notification: z.unknown().nullable(),
  snapshot: z.unknown().optional(),
  snapshotAt: isoTime.nullable(),
  snapshotError: z.string().max(4096).nullable(),
});
type ExportedRequest = z.infer<typeof exportedRequest>;

export class ImportFileError extends Error {
  /** 1-based; null when the file as a whole is wrong. */
  readonly line: number | null;
  constructor(message: string, line: number | null) {
    super(message);
    this.name = 'ImportFileError';
    this.line = line;
  }
}

export interface ImportResult {
  imported: number;
  /** Lines whose request this log already keeps (imported before): skipped. */
  alreadyKept: number;
}

/** Every request of an export, checked; throws ImportFileError naming the first wrong line. */
function readExport(text: string): ExportedRequest[] {
  const requests: ExportedRequest[] = [];
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') continue;
    const number = index + 1;
    if (line.length > LINE_MAX)
      throw new ImportFileError(`Line ${String(number)} is longer than an export's line can be.`, number);
    if (line.startsWith('#') || line.startsWith('curl ')) {
      throw new ImportFileError(
        `Line ${String(number)} is a cURL command: import reads the JSONL export (npm run listen -- export FILE, without --format curl).`,
        number,
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ImportFileError(`Line ${String(number)} is not JSON: each line of an export is one request.`, number);
    }
    const parsed = exportedRequest.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue === undefined || issue.path.length === 0 ? 'the line' : issue.path.join('.');
      throw new ImportFileError(`Line ${String(number)}: ${field} ${issue?.message ?? 'is not valid'}.`, number);
    }
    requests.push(parsed.data);
    if (requests.length > IMPORT_MAX_REQUESTS) {
      throw new ImportFileError(`More than ${String(IMPORT_MAX_REQUESTS)} requests: import a smaller export.`, number);
    }
  }
  if (requests.length === 0) throw new ImportFileError('The file holds no request: nothing was imported.', null);
  return requests;
}

function bodyOf(request: ExportedRequest): Buffer | null {
  if (request.bodyText !== null) return Buffer.from(request.bodyText, 'utf8');
  if (request.bodyBase64 !== null) return Buffer.from(request.bodyBase64, 'base64');
  return null;
}

function recordOf(request: ExportedRequest): ArrivalRecord {
  return {
    receivedAt: Date.parse(request.receivedAt),
    method: request.method,
    path: request.path,
    query: request.query,
    remoteAddress: request.remoteAddress,
    headers: request.headers.map(([name, value]) =>
      name.toLowerCase() === 'authorization' ? [name, redactAuthorization(value)] : [name, value],
    ),
    body: bodyOf(request),
    bodyBytes: request.bodyBytes,
    declaredBytes: request.declaredBytes,
    bodyTruncated: request.bodyTruncated,
    bodyProblem: request.bodyProblem,
    notification: request.notification === null ? null : JSON.stringify(request.notification),
    event: request.event,
    objectId: request.objectId,
    op: request.op,
    verdict: request.verdict,
    presentedUser: request.presentedUser,
    outcome: request.outcome,
    status: request.status,
    ruleId: request.ruleId,
    durationMs: request.durationMs,
    occurrence: request.occurrence,
    outOfOrder: request.outOfOrder,
  };
}

function sameRequest(kept: ReceivedRequest, incoming: ExportedRequest): boolean {
  return (
    kept.method === incoming.method &&
    kept.path === incoming.path &&
    kept.query === incoming.query &&
    kept.bodyText === incoming.bodyText &&
    kept.bodyBase64 === incoming.bodyBase64
  );
}

/** Keep every request of `text` in `log` (oldest first, new ids); see the file's comment. */
export function importExport(log: RequestLog, text: string): ImportResult {
  const requests = readExport(text).sort((a, b) => Date.parse(a.receivedAt) - Date.parse(b.receivedAt));
  const fresh = requests.filter((request) => {
    const at = Date.parse(request.receivedAt);
    for (const kept of log.iterate({ since: at, until: at + 1 })) if (sameRequest(kept, request)) return false;
    return true;
  });
  const ids = fresh.length === 0 ? [] : log.insertMany(fresh.map(recordOf));
  for (const [index, id] of ids.entries()) {
    const request = fresh[index];
    if (request?.snapshotAt === undefined || request.snapshotAt === null) continue;
    const snapshot =
      request.snapshot === undefined || request.snapshot === null ? null : JSON.stringify(request.snapshot);
    log.recordSnapshot(id, Date.parse(request.snapshotAt), snapshot, request.snapshotError);
  }
  return { imported: ids.length, alreadyKept: requests.length - fresh.length };
}
