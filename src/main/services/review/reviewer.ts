/**
 * Who reviews: the OS user name, until the officer sets another name in Settings (kept in the
 * cache, sealed like the reviews it signs, so the app and `ledger` sign reviews alike). The
 * setting goes with the sealed tables when the data key is lost: the OS user name again.
 */
import type { DatabaseSync } from 'node:sqlite';
import { userInfo } from 'node:os';
import type { RecordSealer } from '../cache/sealing.ts';
import { ReviewProblem } from './reviewProblem.ts';

const SETTING = 'reviewer';
const IDENTITY = 'review_settings\u0000reviewer';
const REVIEWER_MAX = 100;

/** The OS user name, or a plain word when the OS has none to give (a container without passwd). */
export function osUserName(env: NodeJS.ProcessEnv = process.env): string {
  try {
    const name = userInfo().username.trim();
    if (name !== '') return name;
  } catch {
    // No passwd entry for this uid: fall back to the environment.
  }
  return (env.USER ?? env.USERNAME ?? '').trim() || 'officer';
}

export class Reviewer {
  readonly #database: DatabaseSync;
  readonly #sealer: () => RecordSealer;

  constructor(database: DatabaseSync, sealer: () => RecordSealer) {
    this.#database = database;
    this.#sealer = sealer;
  }

  /** The name reviews are signed with, and whether it is the OS user name or one set in Settings. */
  get(): { name: string; source: 'os' | 'settings' } {
    const row = this.#database.prepare('SELECT value FROM review_settings WHERE name = ?').get(SETTING) as
      { value: string } | undefined;
    if (row === undefined) return { name: osUserName(), source: 'os' };
    const name = this.#sealer().openJson(Buffer.from(row.value, 'base64'), IDENTITY);
    return typeof name === 'string' ? { name, source: 'settings' } : { name: osUserName(), source: 'os' };
  }

  /** Sets the name (one line, 1–100 characters); null goes back to the OS user name. */
  set(name: string | null): { name: string; source: 'os' | 'settings' } {
    if (name === null) {
      this.#database.prepare('DELETE FROM review_settings WHERE name = ?').run(SETTING);
      return this.get();
    }
    const trimmed = name.trim();
    // eslint-disable-next-line no-control-regex -- a name is one line of plain text
    if (trimmed === '' || trimmed.length > REVIEWER_MAX || /[\u0000-\u001f\u007f]/.test(trimmed)) {
      throw new ReviewProblem(
        'bad-reviewer',
        'reviewer',
        `The reviewer's name must be one line of 1 to ${String(REVIEWER_MAX)} characters.`,
      );
    }
    this.#database
      .prepare(
        'INSERT INTO review_settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
      )
      .run(SETTING, this.#sealer().sealJson(trimmed, IDENTITY).toString('base64'));
    return this.get();
  }
}
