/**
 * Files (conventions.md): POST /file takes raw bytes with their media type in Content-Type
 * (no multipart, at most 10 MiB), so documents and card art refer to real files.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { FILE_MAX_BYTES, timestampOf, type FileRecord } from '../../shared/bank/index.ts';
import { jsonText } from '../http/answer.ts';
import { idempotent } from '../http/idempotency.ts';
import { listRecords, recordOr404 } from '../http/recordList.ts';
import { originOf, pathParameter } from '../http/requestInput.ts';
import type { Router } from '../http/router.ts';
import { freshId } from '../random.ts';
import { RequestProblem } from '../requestProblem.ts';
import type { SandboxContext } from '../sandboxContext.ts';
import { inTransaction } from '../store/database.ts';

/** `type/subtype`, parameters dropped: what the file is, not how it travelled. */
const MEDIA_TYPE = /^([a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*)\s*(;.*)?$/i;

function filePath(id: string): string {
  return `/file/${id}`;
}

/**
 * A file record as served: `content_url` (the real service sends one) is the absolute address
 * of GET /file/{id}/content as this client reached the sandbox, filled in when served because
 * the sandbox's address can change between runs of the same store.
 */
function servedFile(origin: string): (body: string) => string {
  return (body) => {
    const record = JSON.parse(body) as FileRecord;
    return JSON.stringify({ ...record, content_url: `${origin}${filePath(record.id)}/content` });
  };
}

export function registerFileRoutes(router: Router, context: SandboxContext, app: FastifyInstance): void {
  // Its own scope: any media type is accepted as raw bytes here, and only here.
  void app.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: FILE_MAX_BYTES }, (_request, body, parsed) => {
      parsed(null, body);
    });
    router.within(scope).post('/file', (request) => {
      const declared = request.headers['content-type'] ?? '';
      const match = MEDIA_TYPE.exec(declared);
      if (match?.[1] === undefined) {
        throw new RequestProblem(
          415,
          'POST /file needs a Content-Type naming the media type of the bytes (e.g. image/png).',
        );
      }
      const contentType = match[1].toLowerCase();
      if (contentType.startsWith('multipart/')) {
        throw new RequestProblem(
          415,
          'POST /file takes the raw bytes of one file, not multipart: send them with their own Content-Type.',
        );
      }
      const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (bytes.length === 0) throw new RequestProblem(400, 'The file is empty: send its bytes as the request body.');
      return idempotent(context, request, 'POST /file', () => {
        const now = timestampOf(new Date());
        const file: FileRecord = {
          id: freshId('file'),
          content_type: contentType,
          content_length: bytes.length,
          content_hash: createHash('sha1').update(bytes).digest('hex'),
          content_url: null,
          created_at: now,
          updated_at: now,
        };
        inTransaction(context.database, () => {
          context.records.insert('file', file.id, file.created_at, file);
          context.fileContents.put(file.id, bytes);
          context.events.publish({ event: 'file.create', objectId: file.id, objectPath: filePath(file.id) });
        });
        return jsonText(200, servedFile(originOf(request, context.baseUrl()))(JSON.stringify(file)));
      });
    });
    done();
  });

  router.get('/file', (request) =>
    listRecords(context, request, {
      kind: 'file',
      path: '/file',
      present: servedFile(originOf(request, context.baseUrl())),
    }),
  );

  router.get('/file/:file_id', (request) =>
    jsonText(
      200,
      servedFile(originOf(request, context.baseUrl()))(
        recordOr404(context, 'file', pathParameter(request, 'file_id'), 'file'),
      ),
    ),
  );

  /** The bytes themselves, with the media type they were uploaded with. */
  router.get('/file/:file_id/content', (request) => {
    const id = pathParameter(request, 'file_id');
    const file = context.records.read('file', id) as FileRecord | undefined;
    const bytes = context.fileContents.get(id);
    if (file === undefined || bytes === undefined) throw new RequestProblem(404, `No file with id ${id}.`);
    return { status: 200, body: bytes, contentType: file.content_type };
  });
}
