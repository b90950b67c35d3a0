/**
 * The temporary `<file>.partial` an export writes before renaming it over the chosen file.
 * Opened exclusively (O_CREAT|O_EXCL, mode 0600): a symlink planted at that name is removed,
 * never followed, and one planted again between the removal and the open makes the open fail
 * (EEXIST) instead of writing the export's rows wherever it points (review L8).
 */
import { open, rm } from 'node:fs/promises';
import type { WriteStream } from 'node:fs';

export interface PartialFile {
  path: string;
  stream: WriteStream;
}

export async function createPartialFile(file: string): Promise<PartialFile> {
  const path = `${file}.partial`;
  // A leftover from a crash, or a planted link: rm removes the link itself, not its target.
  await rm(path, { force: true });
  const handle = await open(path, 'wx', 0o600);
  return { path, stream: handle.createWriteStream() };
}
