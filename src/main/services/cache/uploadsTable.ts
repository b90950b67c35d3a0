/** Documents and card-art uploads made from this app, kept so the user can see what they sent. */
import type { DatabaseSync } from 'node:sqlite';
import type { CardArtAssetType, DocumentResponse } from '../../../shared/bank/index.ts';
import { pageLimitOf, type CacheRead } from './cacheRead.ts';
import { decodeCursor, encodeCursor, fingerprintOf } from './keysetCursor.ts';
import { foldText, SEALED_MATCHES_FUNCTION } from './sealedSearch.ts';
import type { RecordSealer } from './sealing.ts';
import { textKeyOf } from './absentKeys.ts';

export interface CardArtUpload {
  cardProductId: string;
  assetType: CardArtAssetType;
  fileId: string;
  uploadedAt: string;
}

export interface UploadsQuery {
  profileId: string;
  limit?: number;
  cursor?: string | null;
}

export interface DocumentsQuery extends UploadsQuery {
  /** Text in the document id or type (clear), or in its sealed name, fields and data. */
  search?: string;
}

export class UploadsTable {
  readonly #database: DatabaseSync;
  readonly #sealer: () => RecordSealer;

  constructor(database: DatabaseSync, sealer: () => RecordSealer) {
    this.#database = database;
    this.#sealer = sealer;
  }

  recordDocument(profileId: string, document: DocumentResponse): void {
    this.#database
      .prepare(
        `INSERT INTO documents (profile_id, document_id, type, created_at, body) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (profile_id, document_id) DO UPDATE SET type = excluded.type, body = excluded.body`,
      )
      .run(
        profileId,
        document.id,
        textKeyOf(document.type),
        textKeyOf(document.created_at),
        this.#sealer().sealJson(document, `document\u0000${profileId}\u0000${document.id}`),
      );
  }

  recordCardArt(profileId: string, upload: CardArtUpload): void {
    const inserted = this.#database
      .prepare(
        `INSERT INTO card_art_uploads (profile_id, card_product_id, asset_type, uploaded_at, body)
         VALUES (?, ?, ?, ?, zeroblob(0)) RETURNING id`,
      )
      .get(profileId, upload.cardProductId, upload.assetType, upload.uploadedAt) as { id: number };
    this.#database
      .prepare('UPDATE card_art_uploads SET body = ? WHERE id = ?')
      .run(
        this.#sealer().sealJson(upload, `card_art_upload\u0000${profileId}\u0000${String(inserted.id)}`),
        inserted.id,
      );
  }

  documents(query: DocumentsQuery): CacheRead<DocumentResponse> {
    const limit = pageLimitOf(query.limit);
    const needle = foldText(query.search?.trim() ?? '');
    const fingerprint = fingerprintOf(['documents', query.profileId, needle]);
    const where = ['profile_id = ?'];
    const parameters: (string | number | null)[] = [query.profileId];
    if (needle !== '') {
      where.push(
        `(instr(lower(document_id), ?) > 0 OR instr(lower(type), ?) > 0
          OR ${SEALED_MATCHES_FUNCTION}('document', profile_id, document_id, body, ?))`,
      );
      parameters.push(needle, needle, needle);
    }
    if (query.cursor !== undefined && query.cursor !== null) {
      const [createdAt, id] = decodeCursor(query.cursor, fingerprint);
      where.push('(created_at, document_id) < (?, ?)');
      parameters.push(createdAt, id);
    }
    const rows = this.#database
      .prepare(
        `SELECT document_id, created_at, body FROM documents WHERE ${where.join(' AND ')}
         ORDER BY created_at DESC, document_id DESC LIMIT ?`,
      )
      .all(...parameters, limit + 1) as { document_id: string; created_at: string; body: Uint8Array }[];
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const sealer = this.#sealer();
    return {
      rows: page.map(
        (row) =>
          sealer.openJson(row.body, `document\u0000${query.profileId}\u0000${row.document_id}`) as DocumentResponse,
      ),
      nextCursor:
        rows.length > limit && last !== undefined ? encodeCursor(fingerprint, last.created_at, last.document_id) : null,
      asOf: null,
      source: 'cache',
    };
  }

  cardArtUploads(query: UploadsQuery): CacheRead<CardArtUpload> {
    const limit = pageLimitOf(query.limit);
    const fingerprint = fingerprintOf(['card-art-uploads', query.profileId]);
    const where = ['profile_id = ?'];
    const parameters: (string | number | null)[] = [query.profileId];
    if (query.cursor !== undefined && query.cursor !== null) {
      const [, id] = decodeCursor(query.cursor, fingerprint);
      where.push('id < ?');
      parameters.push(Number(id));
    }
    const rows = this.#database
      .prepare(`SELECT id, body FROM card_art_uploads WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`)
      .all(...parameters, limit + 1) as { id: number; body: Uint8Array }[];
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const sealer = this.#sealer();
    return {
      rows: page.map(
        (row) =>
          sealer.openJson(row.body, `card_art_upload\u0000${query.profileId}\u0000${String(row.id)}`) as CardArtUpload,
      ),
      nextCursor: rows.length > limit && last !== undefined ? encodeCursor(fingerprint, null, String(last.id)) : null,
      asOf: null,
      source: 'cache',
    };
  }
}
