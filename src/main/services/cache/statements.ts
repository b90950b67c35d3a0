/**
 * Prepared statements kept per SQL text: named queries are built from a few fixed shapes, so
 * each shape is compiled once instead of on every page read.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

const LIMIT = 256;

export class Statements {
  readonly #database: DatabaseSync;
  readonly #prepared = new Map<string, StatementSync>();

  constructor(database: DatabaseSync) {
    this.#database = database;
  }

  get(sql: string): StatementSync {
    let statement = this.#prepared.get(sql);
    if (statement === undefined) {
      if (this.#prepared.size >= LIMIT) this.#prepared.clear();
      statement = this.#database.prepare(sql);
      this.#prepared.set(sql, statement);
    }
    return statement;
  }
}
