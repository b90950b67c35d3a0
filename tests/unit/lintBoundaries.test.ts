/**
 * The import boundaries of DESIGN.md are enforced by lint: each deliberate violation below
 * fails, and the same import from an allowed place passes. The rules are the ones
 * eslint.config.mjs uses (eslint.boundaries.mjs), run on source text with real file paths.
 */
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { boundaries } from '../../eslint.boundaries.mjs';

const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfigFile: true,
  baseConfig: [
    {
      files: ['**/*.{ts,tsx}'],
      languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
    },
    ...boundaries,
  ],
});

async function violations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
}

describe('lint enforces the import boundaries', () => {
  it.each([
    ['src/shared/bank/x.ts', "import { readFileSync } from 'node:fs';"],
    ['src/shared/bank/x.ts', "import path from 'path';"],
    ['src/shared/bank/x.ts', "import { app } from 'electron';"],
    ['src/shared/bank/x.ts', "import { startSandbox } from '../../sandbox/server.ts';"],
    ['src/shared/ipc/x.ts', "import { createWindow } from '../../main/window.ts';"],
    ['src/shared/ipc/x.ts', "import { useStore } from '../../renderer/src/store.ts';"],
    ['src/shared/bank/x.ts', 'export const title = document.title;'],
    ['src/shared/bank/x.ts', 'export const home = process.env.HOME;'],
    ['src/renderer/src/x.tsx', "import { readFile } from 'node:fs/promises';"],
    ['src/renderer/src/x.tsx', "import { ipcRenderer } from 'electron';"],
    ['src/renderer/src/x.tsx', "import { bankClient } from '../../main/services/bankClient.ts';"],
    ['src/renderer/src/x.tsx', "import { seed } from '../../sandbox/seed.ts';"],
    ['src/renderer/src/x.tsx', "import '../../preload/index.ts';"],
    ['src/main/services/x.ts', "import { app } from 'electron';"],
    ['src/main/services/x.ts', "import Store from 'electron-store';"],
    ['src/main/services/cache/x.ts', "import { safeStorage } from 'electron';"],
    ['src/sandbox/x.ts', "import { app } from 'electron';"],
    // Issue 27: services read the bank's rules from src/shared/bank, never from the sandbox's code.
    [
      'src/main/services/trigger/x.ts',
      "import { ACH_TRANSITIONS } from '../../../sandbox/simulations/achLifecycle.ts';",
    ],
    ['src/main/services/listener/x.ts', "import { x } from '../../../sandbox/http/boundHostNames.ts';"],
    ['src/sandbox/x.ts', "import { cache } from '../main/services/cache.ts';"],
    ['src/preload/x.ts', "import { router } from '../main/ipc/router.ts';"],
    ['src/main/x.ts', "import { App } from '../renderer/src/App.tsx';"],
    ['tests/unit/x.test.ts', "import { app } from 'electron';"],
    ['src/main/web/x.ts', "import { app } from 'electron';"],
    ['src/main/web/x.ts', "import Store from 'electron-store';"],
    // Issue 39: folders by shell. Only src/main/electron imports electron; no list of files.
    ['src/main/app/x.ts', "import { utilityProcess } from 'electron';"],
    ['src/main/app/services.ts', "import { app } from 'electron';"],
    ['src/main/cli/ledger/x.ts', "import { app } from 'electron';"],
    ['src/main/cli/listen/x.ts', "import Store from 'electron-store';"],
    ['src/main/cli/common/x.ts', "import { app } from 'electron';"],
    ['src/main/ipc/x.ts', "import type { IpcMainInvokeEvent } from 'electron';"],
    ['src/main/x.ts', "import { app } from 'electron';"],
    ['src/main/newShell/x.ts', "import { app } from 'electron';"],
    // Services are library code: they never import a shell.
    ['src/main/services/x.ts', "import { createServices } from '../app/services.ts';"],
    ['src/main/services/review/x.ts', "import { startWebShell } from '../../web/webShell.ts';"],
    ['src/main/services/x.ts', "import { runLedger } from '../cli/ledger/runLedger.ts';"],
    ['src/main/services/cache/x.ts', "import { appDataFolder } from '../../cli/common/appDataFolder.ts';"],
    ['src/main/services/x.ts', "import { secureWebPreferences } from '../electron/webPreferences.ts';"],
    // IPC handlers are transport: no shell either.
    ['src/main/ipc/x.ts', "import { createServices } from '../app/services.ts';"],
    ['src/main/ipc/x.ts', "import { registerRouter } from '../electron/ipcMainRouter.ts';"],
    // The sandbox's entry point only, from every folder of src/main.
    ['src/main/cli/ledger/x.ts', "import { x } from '../../../sandbox/http/boundHostNames.ts';"],
    ['src/main/app/x.ts', "import { x } from '../../sandbox/http/boundHostNames.ts';"],
    ['src/main/electron/x.ts', "import { x } from '../../sandbox/http/boundHostNames.ts';"],
    ['src/main/electron/x.ts', "import { App } from '../../renderer/src/App.tsx';"],
    ['src/main/web/x.ts', "import '../../webBridge/index.ts';"],
    ['src/webBridge/x.ts', "import { readFile } from 'node:fs/promises';"],
    ['src/webBridge/x.ts', "import { ipcRenderer } from 'electron';"],
    ['src/webBridge/x.ts', "import { createRouter } from '../main/ipc/routerCore.ts';"],
    ['src/webBridge/x.ts', "import { App } from '../renderer/src/App.tsx';"],
    ['src/renderer/src/x.tsx', "import '../../webBridge/index.ts';"],
    ['src/shared/ipc/x.ts', "import '../../webBridge/index.ts';"],
  ])('%s: %s fails', async (filePath, code) => {
    const found = await violations(filePath, code);
    expect(found.length, `expected a violation in ${filePath}`).toBeGreaterThan(0);
    expect(found.join('\n')).toMatch(/no-restricted-(imports|globals)/);
  });

  it.each([
    ['src/main/electron/index.ts', "import { app } from 'electron';"],
    ['src/main/electron/window.ts', "import { BrowserWindow } from 'electron';"],
    ['src/main/electron/x.ts', "import Store from 'electron-store';"],
    ['src/main/electron/x.ts', "import { startLedgerdesk } from '../app/startLedgerdesk.ts';"],
    ['src/main/app/x.ts', "import { LedgerServices } from '../services/ledgerServices.ts';"],
    ['src/main/app/x.ts', "import { startSandbox } from '../../sandbox/index.ts';"],
    ['src/main/cli/ledger/x.ts', "import { LEAN_SANDBOX_VARIABLE } from '../../app/embeddedSandbox.ts';"],
    ['src/main/cli/listen/x.ts', "import { UsageError } from '../common/usageError.ts';"],
    ['src/main/web/x.ts', "import { startLedgerdesk } from '../app/startLedgerdesk.ts';"],
    ['src/main/services/x.ts', "import { appOperations } from '../../shared/ipc/domains/app.ts';"],
    ['src/main/ipc/x.ts', "import { LedgerServices } from '../services/ledgerServices.ts';"],
    ['src/preload/index.ts', "import { contextBridge } from 'electron';"],
    ['src/main/services/x.ts', "import { DatabaseSync } from 'node:sqlite';"],
    ['src/main/services/x.ts', "import { startSandbox } from '../../sandbox/index.ts';"],
    ['src/main/services/trigger/x.ts', "import { ACH_TRANSITIONS } from '../../../shared/bank/lifecycles.ts';"],
    ['src/sandbox/x.ts', "import { pendingTransaction } from '../shared/bank/index.ts';"],
    ['src/renderer/src/x.tsx', "import { pendingTransaction } from '../../shared/bank/index.ts';"],
    ['src/shared/ipc/x.ts', "import { pendingTransaction } from '../bank/index.ts';"],
    ['src/shared/bank/x.ts', "import { z } from 'zod';"],
    ['src/main/web/x.ts', "import { createServer } from 'node:http';"],
    ['src/main/web/x.ts', "import { createRouter } from '../ipc/routerCore.ts';"],
    ['src/webBridge/x.ts', "import { buildLedgerdeskApi } from '../shared/ipc/bridge.ts';"],
  ])('%s: %s is allowed', async (filePath, code) => {
    expect(await violations(filePath, code)).toEqual([]);
  });
});
