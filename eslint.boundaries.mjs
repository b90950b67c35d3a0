/**
 * The import boundaries of DESIGN.md, as lint rules. Imported by eslint.config.mjs and by
 * tests/unit/lintBoundaries.test.ts, which proves each rule fails on a deliberate violation.
 *
 *   renderer -> shared      preload -> shared      main -> shared, sandbox
 *   (src/main/services: only the sandbox's entry point, src/sandbox/index.ts)
 *   sandbox -> shared       shared -> nothing of ours      webBridge -> shared
 *   electron: only the shell files of src/main (outside src/main/services, src/main/common,
 *   src/main/web and the shell files both shells share) and src/preload.
 */
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules.filter((name) => !name.startsWith('_')), 'node:*'];

const noElectron = [
  { name: 'electron', message: 'Only the shell files of src/main and src/preload may import electron.' },
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
    files: ['src/main/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...layer('The main process', 'preload', 'renderer', 'webBridge')] },
      ],
    },
  },
  {
    files: ['src/main/services/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noElectron,
          patterns: [
            ...layer('The main-process services', 'preload', 'renderer', 'webBridge'),
            {
              // The client must not learn the bank's rules from the bank's code (issue 27):
              // what both read lives in src/shared/bank; the embedded bank is started only
              // through its entry point.
              group: ['**/sandbox/**', '!**/sandbox/index.ts'],
              message:
                "src/main/services may import only the embedded bank's entry point (src/sandbox/index.ts); what both sides read goes in src/shared.",
            },
          ],
        },
      ],
    },
  },
  {
    // What both shells share, and web mode (the second shell): plain Node, never electron.
    files: [
      'src/main/common/**/*.ts',
      'src/main/web/**/*.ts',
      'src/main/app/services.ts',
      'src/main/app/embeddedSandbox.ts',
      'src/main/app/appProtocol.ts',
      'src/main/app/externalLinks.ts',
      'src/main/app/log.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noElectron,
          patterns: [...layer('What both shells share', 'preload', 'renderer', 'webBridge')],
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
