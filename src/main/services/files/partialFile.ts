/**
 * The temporary `<file>.partial` an export writes before renaming it over the chosen file.
 * Opened exclusively (O_CREAT|O_EXCL, mode 0600): a symlink planted at that name is removed,
 * never followed, and one planted again between the removal and the open makes the open fail
 * (EEXIST) instead of writing the export's rows wherever it points (review L8).
 */
import { lstat, open, rename, rm } from 'node:fs/promises';
import type { WriteStream } from 'node:fs';

export interface PartialFile {
  path: string;
  stream: WriteStream;
}

/** A save target that is a symbolic link: refused, never followed or replaced (review N6). */
class LinkTargetRefused extends Error {
  readonly code = 'invalid_input';
  constructor(file: string) {
    super(`${file} is a symbolic link; Ledgerdesk does not write through links. Choose another file.`);
    this.name = 'LinkTargetRefused';
  }
}

async function refuseLinkTarget(file: string): Promise<void> {
  const info = await lstat(file).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  });
  if (info?.isSymbolicLink() === true) throw new LinkTargetRefused(file);
}

export async function createPartialFile(file: string): Promise<PartialFile> {
  await refuseLinkTarget(file);
  const path = `${file}.partial`;
  // A leftover from a crash, or a planted link: rm removes the link itself, not its target.
  await rm(path, { force: true });
  const handle = await open(path, 'wx', 0o600);
  return { path, stream: handle.createWriteStream() };
}

/**
 * Writes a whole file the user chose (a report): through an exclusive `<file>.partial`, then
 * renamed over the file, so no link at either name is followed and a failed save leaves nothing.
 */
export async function writeWholeFile(file: string, content: string | Uint8Array): Promise<void> {
  await refuseLinkTarget(file);
  const path = `${file}.partial`;
  await rm(path, { force: true });
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(content);
    await handle.close();
    await rename(path, file);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
}
