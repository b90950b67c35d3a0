/**
 * The import boundaries of DESIGN.md, as lint rules. Imported by eslint.config.mjs and by
 * tests/unit/lintBoundaries.test.ts, which proves each rule fails on a deliberate violation.
 *
 *   renderer -> shared      preload -> shared      main -> shared, sandbox
 *   (src/main: only the sandbox's entry point, src/sandbox/index.ts)
 *   sandbox -> shared       shared -> nothing of ours      webBridge -> shared
 *   electron: only src/main/electron and src/preload (folder rules, no list of files).
 *   src/main/services: library code, never a shell (src/main/app, web, cli, electron).
 */
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules.filter((name) => !name.startsWith('_')), 'node:*'];

const noElectron = [
  { name: 'electron', message: 'Only src/main/electron and src/preload may import electron.' },
  {
    name: 'electron-store',
    message: 'electron-store imports electron: use it only in the shell, behind an injectable interface.',
  },
];

function layer(name, ...folders) {
  return folders.map((folder) => ({
    group: [`**/${folder}`, `**/${folder}/**`],
    message: `${name} must not import from src/${folder}: see the import direction in DESIGN.md.`,
  }));
}

/**
 * The client must not learn the bank's rules from the bank's code (issue 27): what both read
 * lives in src/shared/bank; the embedded bank is started only through its entry point.
 */
const sandboxEntryOnly = {
  group: ['**/sandbox/**', '!**/sandbox/index.ts'],
  message:
    "src/main may import only the embedded bank's entry point (src/sandbox/index.ts); what both sides read goes in src/shared.",
};

/** The shells of src/main (folders), which library code and transport never import. */
function shells(who) {
  return ['app', 'web', 'cli', 'electron'].map((folder) => ({
    group: [`**/${folder}/**`],
    message: `${who} must not import from src/main/${folder} (a shell): see "Folders by shell" in docs/reference.md.`,
  }));
}

const nodeImports = {
  group: nodeBuiltins,
  message: 'Node built-ins are not available here: this code runs outside Node.',
};

/** Globals that exist only in a browser or only in Node: src/shared uses neither. */
const runtimeGlobals = [
  'window',
  'document',
  'navigator',
  'localStorage',
  'sessionStorage',
  'location',
  'process',
  'Buffer',
  'require',
  '__dirname',
  '__filename',
  'global',
].map((name) => ({ name, message: `src/shared is runtime-neutral: ${name} is not available everywhere.` }));

export const boundaries = [
  {
    files: ['src/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noElectron,
          patterns: [
            nodeImports,
            {
              group: ['react', 'react-dom', 'react/*', 'zustand', 'axios', 'fastify'],
              message: 'src/shared imports no UI or network library.',
            },
            ...layer('src/shared', 'main', 'preload', 'renderer', 'sandbox', 'webBridge'),
          ],
        },
      ],
      'no-restricted-globals': ['error', ...runtimeGlobals],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noElectron,
          patterns: [nodeImports, ...layer('The renderer', 'main', 'preload', 'sandbox', 'webBridge')],
        },
      ],
    },
  },
  {
    files: ['src/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...layer('The preload', 'main', 'renderer', 'sandbox', 'webBridge')] },
      ],
    },
  },
  {
    files: ['src/sandbox/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: noElectron, patterns: [...layer('The sandbox', 'main', 'preload', 'renderer', 'webBridge')] },
      ],
    },
  },
  {
    // The Electron shell: the only folder of src/main that may import electron.
    files: ['src/main/electron/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...layer('The main process', 'preload', 'renderer', 'webBridge'), sandboxEntryOnly] },
      ],
    },
  },
  {
    // Everything else of the main process (app, web, cli, ipc, services): plain Node, never electron.
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/electron/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noElectron,
          patterns: [...layer('The main process', 'preload', 'renderer', 'webBridge'), sandboxEntryOnly],
        },
      ],
    },
  },
  {
    // Library code under every shell: it never reaches back into one (issue 39).
    files: ['src/main/services/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noElectron,
          patterns: [
            ...layer('The main-process services', 'preload', 'renderer', 'webBridge'),
            sandboxEntryOnly,
            ...shells('src/main/services is library code: it'),
          ],
        },
      ],
    },
  },
  {
    // IPC handlers are transport between a shell and the services: no shell of their own.
    files: ['src/main/ipc/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noElectron,
          patterns: [
            ...layer('The IPC handlers', 'preload', 'renderer', 'webBridge'),
            sandboxEntryOnly,
            ...shells('src/main/ipc is transport: it'),
          ],
        },
      ],
    },
  },
  {
    // Web mode's preload runs in a browser tab: the contract's bridge builder, nothing of Node or Electron.
    files: ['src/webBridge/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noElectron,
          patterns: [nodeImports, ...layer("Web mode's preload", 'main', 'preload', 'renderer', 'sandbox')],
        },
      ],
    },
  },
  {
    // Tests and scripts run in plain Node, where importing electron would try to download it.
    files: ['tests/**/*.{ts,tsx}', 'scripts/**/*.{ts,mjs}'],
    rules: {
      'no-restricted-imports': ['error', { paths: noElectron }],
    },
  },
];
