/**
 * Web mode's Node bundle (`npm run serve`, `ledger serve`, `npm start`'s fallback), built by
 * `npm run build` after electron-vite's three bundles. Run from the TypeScript sources, web
 * mode's start loaded hundreds of files, each stripped of its types by Node: 18.7 s on the busy
 * two-core build machine (docs/web-mode.md). Built, each process loads a few files, as the
 * desktop app runs from out/main.
 *
 * - serve.js: the web server (src/main/web/serve.ts). It forks the sandbox before it loads the
 *   rest of Ledgerdesk, which it imports from its own chunk.
 * - sandboxChild.js: the embedded sandbox bank's process (forkSandbox.ts looks for it beside itself).
 * - cacheWriterWorker.js: the cache writer's thread, found beside the cache's code (cacheWriter.ts
 *   workerFile()), so chunks stay in out/web itself, and checked against the digests the build
 *   writes into the bundle (N12), as in out/main.
 *
 * Dependencies stay in node_modules (an SSR build externalises them): web mode runs from the
 * project's folder, never packaged.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { workerDigestsPlugin } from './scripts/workerDigestsPlugin.ts';

const entry = (file: string): string => resolve(import.meta.dirname, file);

export default defineConfig({
  plugins: [workerDigestsPlugin()],
  // Not a page: no public folder, no index.html.
  publicDir: false,
  logLevel: 'warn',
  build: {
    ssr: true,
    target: 'node24',
    outDir: 'out/web',
    emptyOutDir: true,
    minify: false,
    reportCompressedSize: false,
    rollupOptions: {
      input: {
        serve: entry('src/main/web/serve.ts'),
        sandboxChild: entry('src/main/web/sandboxChild.ts'),
        cacheWriterWorker: entry('src/main/services/cache/cacheWriterWorker.ts'),
      },
      output: {
        format: 'es',
        entryFileNames: '[name].js',
        chunkFileNames: '[name]-[hash].js',
      },
    },
  },
});
