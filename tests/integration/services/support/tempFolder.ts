import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh folder under the system's temp folder, removed by the returned function. */
export function makeTempFolder(prefix = 'ledgerdesk-services-'): { folder: string; remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  return {
    folder,
    remove: () => {
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
