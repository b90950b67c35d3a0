/**
 * Reads an asar archive's header (the archive's table of contents), as Electron does: a
 * Chromium pickle holding the header's size, then a pickle holding the JSON header string.
 *   bytes 0-3   uint32 LE  4 (size of the first pickle's payload)
 *   bytes 4-7   uint32 LE  size of the header pickle
 *   bytes 8-11  uint32 LE  size of the header pickle's payload
 *   bytes 12-15 uint32 LE  length of the JSON string, which starts at byte 16
 * A file entry is `{ size, offset, unpacked? }`; a folder `{ files: { name: entry } }`.
 */
import { closeSync, openSync, readSync } from 'node:fs';

interface AsarFolder {
  files: Record<string, AsarNode>;
}
interface AsarFile {
  size: number;
  offset?: string;
  unpacked?: boolean;
}
type AsarNode = AsarFolder | AsarFile;

export interface AsarEntry {
  /** Path inside the archive, with forward slashes: `out/main/index.js`. */
  path: string;
  size: number;
  /** Stored in app.asar.unpacked beside the archive rather than inside it. */
  unpacked: boolean;
}

export interface AsarArchive {
  entries: Map<string, AsarEntry>;
  /** The bytes of a file stored inside the archive. */
  read: (path: string) => Buffer;
}

function readAt(file: string, position: number, length: number): Buffer {
  const descriptor = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(descriptor, buffer, 0, length, position);
    if (read !== length) throw new Error(`${file}: the archive ends early`);
    return buffer;
  } finally {
    closeSync(descriptor);
  }
}

export function openAsar(file: string): AsarArchive {
  const sizes = readAt(file, 0, 16);
  if (sizes.readUInt32LE(0) !== 4) throw new Error(`${file} is not an asar archive`);
  const headerPickleSize = sizes.readUInt32LE(4);
  const jsonLength = sizes.readUInt32LE(12);
  const header = JSON.parse(readAt(file, 16, jsonLength).toString('utf8')) as AsarFolder;
  // File contents start after the header pickle (8 bytes of sizes + the pickle itself).
  const base = 8 + headerPickleSize;
  const entries = new Map<string, AsarEntry>();
  const offsets = new Map<string, number>();
  const walk = (folder: AsarFolder, prefix: string): void => {
    for (const [name, node] of Object.entries(folder.files)) {
      const path = prefix === '' ? name : `${prefix}/${name}`;
      if ('files' in node) walk(node, path);
      else {
        entries.set(path, { path, size: node.size, unpacked: node.unpacked === true });
        if (node.offset !== undefined) offsets.set(path, Number(node.offset));
      }
    }
  };
  walk(header, '');
  return {
    entries,
    read: (path) => {
      const entry = entries.get(path);
      const offset = offsets.get(path);
      if (entry === undefined || offset === undefined) throw new Error(`${path} is not stored inside the archive`);
      return readAt(file, base + offset, entry.size);
    },
  };
}
