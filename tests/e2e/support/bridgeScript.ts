/**
 * Bundles bridgeEntry.ts (the shared bridge builder and the contract it reads) into one
 * classic script for `page.addInitScript`, with Vite — the project's own bundler.
 */
import { join } from 'node:path';
import { build } from 'vite';

let cached: Promise<string> | undefined;

export function bridgeScript(): Promise<string> {
  cached ??= bundle();
  return cached;
}

async function bundle(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      write: false,
      minify: false,
      lib: { entry: join(import.meta.dirname, 'bridgeEntry.ts'), formats: ['iife'], name: 'ledgerdeskBridge' },
    },
  });
  // write: false answers the bundles in memory: one output with one chunk for an iife library.
  const outputs = (Array.isArray(result) ? result : [result]) as { output: { type: string; code?: string }[] }[];
  const code = outputs.flatMap((output) => output.output).find((item) => item.type === 'chunk')?.code;
  if (code === undefined) throw new Error('Vite produced no bundle for the bridge.');
  return code;
}
