/**
 * Web mode, really started for a test (e2e, security, bench; no Playwright here): the web shell (src/main/web) on a data folder, with
 * its embedded sandbox in its own Node process, the real services and router, serving the built
 * renderer. Only the keychain is in memory (kept across restarts by passing the same store), and
 * nothing opens a browser: the test's Chromium opens the printed address.
 */
import { join } from 'node:path';
import { InMemorySecretStore, type SecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import { forkSandboxChild } from '../../../src/main/web/forkSandbox.ts';
import type { SandboxChild } from '../../../src/main/app/embeddedSandbox.ts';
import { webPdfPrinter } from '../../../src/main/web/chromiumPdfPrinter.ts';
import { startWebShell, type RunningWebShell } from '../../../src/main/web/webShell.ts';
import type { TerminalNotice } from '../../../src/main/web/confirmationCodes.ts';

export interface WebModeApp {
  shell: RunningWebShell;
  /** Everything the shell logged: searched for secrets and tokens. */
  logged: string[];
  /** What `serve`'s terminal showed: Production questions and their codes (W2), read as a person would. */
  terminal: TerminalNotice[];
  /** The code the terminal showed last (what the person types), or '' when none was shown. */
  lastCode(): string;
}

export async function startWebModeApp(
  folder: string,
  secretStore: SecretStore = new InMemorySecretStore(),
  /** How the sandbox's process is forked (a test that ends it as a crash would keeps the child). */
  forkSandbox: () => SandboxChild = forkSandboxChild,
): Promise<WebModeApp> {
  const logged: string[] = [];
  const keep = (line: string): void => {
    logged.push(line);
  };
  const terminal: TerminalNotice[] = [];
  const printer = webPdfPrinter();
  const shell = await startWebShell({
    dataFolder: folder,
    rendererRoot: join(process.cwd(), 'out', 'renderer'),
    secretStore,
    settings: new FileProfileStorage(folder),
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory keychain (tests)' }),
    forkSandbox,
    downloadsFolder: join(folder, 'downloads'),
    openExternal: () => false,
    // The machine's Chromium prints the review report, as `npm run serve` finds it.
    ...(printer === undefined ? {} : { printToPdf: printer }),
    app: { name: 'Ledgerdesk', version: '0.0.0-e2e', platform: process.platform },
    terminal: (notice) => terminal.push(notice),
    log: { info: keep, warn: keep, error: keep },
  });
  const lastCode = (): string => {
    for (let at = terminal.length - 1; at >= 0; at -= 1) {
      const notice = terminal[at];
      if (notice?.kind === 'code') return notice.code;
    }
    return '';
  };
  return { shell, logged, terminal, lastCode };
}
