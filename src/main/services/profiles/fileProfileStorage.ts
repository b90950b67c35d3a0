/**
 * ProfileStorage on a JSON file (`<data folder>/config.json`, electron-store's default
 * name and layout: one object of keys). Writes go to a temporary file that is renamed over
 * the old one, so a crash never leaves half a file; the file is readable by its owner only.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ProfileStorage } from './profileStorage.ts';

export class ProfileFileUnreadable extends Error {
  constructor(file: string, reason: string) {
    super(`The profiles file ${file} cannot be read (${reason}); fix or remove it.`);
    this.name = 'ProfileFileUnreadable';
  }
}

export class FileProfileStorage implements ProfileStorage {
  readonly file: string;

  constructor(dataFolder: string, fileName = 'config.json') {
    this.file = join(dataFolder, fileName);
  }

  get(key: string): unknown {
    return this.#read()[key];
  }

  set(key: string, value: unknown): void {
    const values = this.#read();
    values[key] = value;
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${String(process.pid)}.tmp`;
    writeFileSync(temporary, JSON.stringify(values, null, 2) + '\n', { mode: 0o600 });
    renameSync(temporary, this.file);
  }

  #read(): Record<string, unknown> {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new ProfileFileUnreadable(this.file, (error as Error).message);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ProfileFileUnreadable(this.file, 'it is not valid JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ProfileFileUnreadable(this.file, 'it is not a JSON object');
    }
    return parsed as Record<string, unknown>;
  }
}
