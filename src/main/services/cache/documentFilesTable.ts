/**
 * The files behind applicants' documents (issue 24, item 3), kept after a preview fetched them so
 * the next preview, online or not, reads the cache. The bytes are sealed like every cached record,
 * bound to the profile and document, so a row moved to another document does not open.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { RecordSealer } from './sealing.ts';

export interface CachedDocumentFile {
  documentId: string;
  fileId: string;
  /** As the bank declared it, from the allow-list (documentFiles.ts). */
  contentType: string;
  bytes: Uint8Array;
  fetchedAt: string;
}

interface Row {
  document_id: string;
  file_id: string;
  content_type: string;
  fetched_at: string;
  body: Uint8Array;
}

function identityOf(profileId: string, documentId: string): string {
  return `document_file\u0000${profileId}\u0000${documentId}`;
}

export class DocumentFilesTable {
  readonly #database: DatabaseSync;
  readonly #sealer: () => RecordSealer;

  constructor(database: DatabaseSync, sealer: () => RecordSealer) {
    this.#database = database;
    this.#sealer = sealer;
  }

  get(profileId: string, documentId: string): CachedDocumentFile | null {
    const row = this.#database
      .prepare(
        `SELECT document_id, file_id, content_type, fetched_at, body FROM document_files
         WHERE profile_id = ? AND document_id = ?`,
      )
      .get(profileId, documentId) as Row | undefined;
    if (row === undefined) return null;
    return {
      documentId: row.document_id,
      fileId: row.file_id,
      contentType: row.content_type,
      fetchedAt: row.fetched_at,
      bytes: new Uint8Array(this.#sealer().open(row.body, identityOf(profileId, documentId))),
    };
  }

  put(profileId: string, file: CachedDocumentFile): void {
    const sealed = this.#sealer().seal(
      Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
      identityOf(profileId, file.documentId),
    );
    this.#database
      .prepare(
        `INSERT INTO document_files (profile_id, document_id, file_id, content_type, byte_length, fetched_at, body)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (profile_id, document_id) DO UPDATE SET file_id = excluded.file_id,
           content_type = excluded.content_type, byte_length = excluded.byte_length,
           fetched_at = excluded.fetched_at, body = excluded.body`,
      )
      .run(profileId, file.documentId, file.fileId, file.contentType, file.bytes.byteLength, file.fetchedAt, sealed);
  }
}
