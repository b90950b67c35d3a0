/**
 * Searching bytes for secrets in every form they could be written in: as is (UTF-8 and
 * UTF-16), hex (either case), base64 and base64url at each of the three alignments a secret
 * can take inside a longer encoded value (so `Basic base64(user:secret)` is found whatever the
 * user), JSON-escaped and URL-encoded. Raw key bytes are searched for as bytes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface Needle {
  /** Which secret, and in which form, e.g. "listener secret (base64+1)". */
  name: string;
  bytes: Buffer;
}

export interface Hit {
  where: string;
  needle: string;
}

/** The part of base64(prefix + secret) that depends only on the secret, for a prefix of `offset` bytes. */
function stableBase64(secret: Buffer, offset: number, alphabet: 'base64' | 'base64url'): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), secret]).toString(alphabet);
  const start = offset === 0 ? 0 : 4;
  const end = Math.floor((offset + secret.length) / 3) * 4;
  return encoded.slice(start, end);
}

/** Every form of one secret worth searching for (forms shorter than 8 characters are left out: they would match by chance). */
export function needlesOf(name: string, secret: string | Buffer): Needle[] {
  const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
  const forms = new Map<string, Buffer>();
  const add = (form: string, value: Buffer | string): void => {
    const buffer = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
    if (buffer.length >= 8 && ![...forms.values()].some((existing) => existing.equals(buffer))) forms.set(form, buffer);
  };
  add('raw', bytes);
  if (typeof secret === 'string') {
    add('utf-16', Buffer.from(secret, 'utf16le'));
    add('json', JSON.stringify(secret).slice(1, -1));
    add('url-encoded', encodeURIComponent(secret));
  }
  add('hex', bytes.toString('hex'));
  add('HEX', bytes.toString('hex').toUpperCase());
  for (const offset of [0, 1, 2]) {
    add(`base64+${String(offset)}`, stableBase64(bytes, offset, 'base64'));
    add(`base64url+${String(offset)}`, stableBase64(bytes, offset, 'base64url'));
  }
  return [...forms].map(([form, buffer]) => ({ name: `${name} (${form})`, bytes: buffer }));
}

export function scanBytes(where: string, haystack: Buffer, needles: readonly Needle[]): Hit[] {
  return needles.filter((needle) => haystack.includes(needle.bytes)).map((needle) => ({ where, needle: needle.name }));
}

/** Every file under `root` (recursively), except those `skip` names; paths in hits are relative to `root`. */
export function scanFolder(
  root: string,
  needles: readonly Needle[],
  skip: (relativePath: string) => boolean = () => false,
): { hits: Hit[]; files: string[] } {
  const hits: Hit[] = [];
  const files: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      const name = relative(root, path);
      if (entry.isDirectory()) {
        walk(path);
      } else if (!skip(name)) {
        files.push(name);
        hits.push(...scanBytes(name, readFileSync(path), needles));
      }
    }
  };
  walk(root);
  return { hits, files: files.sort() };
}
