/** The bytes of uploaded files, apart from their records so lists never read them. */
import type { Database } from './database.ts';

export interface FileContentStore {
  put(fileId: string, bytes: Uint8Array): void;
  get(fileId: string): Buffer | undefined;
}

export function createFileContentStore(database: Database): FileContentStore {
  const insert = database.prepare('INSERT INTO file_content (file_id, bytes) VALUES (?, ?)');
  const select = database.prepare('SELECT bytes FROM file_content WHERE file_id = ?');
  return {
    put(fileId, bytes) {
      insert.run(fileId, bytes);
    },
    get(fileId) {
      const row = select.get(fileId);
      return row === undefined ? undefined : Buffer.from(row.bytes as Uint8Array);
    },
  };
}
