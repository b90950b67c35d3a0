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
    ['src/main/common/x.ts', "import { utilityProcess } from 'electron';"],
    ['src/main/app/services.ts', "import { app } from 'electron';"],
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
    ['src/main/shell/window.ts', "import { BrowserWindow } from 'electron';"],
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
