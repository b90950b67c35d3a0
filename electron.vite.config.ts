import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { workerDigestsPlugin } from './scripts/workerDigestsPlugin.ts';
import { pdfjsAssetsPlugin } from './scripts/pdfjsAssetsPlugin.ts';

export default defineConfig({
  main: {
    // The worker's files live outside app.asar: main checks them against digests written here (N12).
    plugins: [workerDigestsPlugin()],
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/main/electron/index.ts'),
          // The embedded sandbox bank runs in a utilityProcess from its own bundle (DESIGN.md).
          sandbox: resolve(import.meta.dirname, 'src/main/electron/sandboxProcess.ts'),
          // The cache's bulk writes run in a worker thread; the cache looks for this file beside
          // its own code (`workerFile()` in cacheWriter.ts), so it sits next to index.js.
          cacheWriterWorker: resolve(import.meta.dirname, 'src/main/services/cache/cacheWriterWorker.ts'),
        },
        // electron-vite does not treat node:sqlite as a builtin (TOOLCHAIN.md).
        external: ['node:sqlite'],
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload is one self-contained CommonJS file: bundle every dependency.
      externalizeDeps: false,
      isolatedEntries: true,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    // pdf.js's CMaps, standard fonts and image decoders, served by the app itself (I-P1).
    plugins: [react(), pdfjsAssetsPlugin()],
    build: {
      outDir: 'out/renderer',
      // electron-vite leaves the renderer unminified; the first screen's script is parsed on
      // every open (web mode's first rows, issue 36), and minified it is a third of the bytes.
      minify: true,
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/renderer/index.html'),
          // Web mode's preload (src/webBridge): the web shell adds it to index.html, under a fixed name.
          'web-bridge': resolve(import.meta.dirname, 'src/webBridge/index.ts'),
        },
        output: {
          entryFileNames: (chunk) => (chunk.name === 'web-bridge' ? 'web-bridge.js' : 'assets/[name]-[hash].js'),
        },
      },
    },
  },
});
