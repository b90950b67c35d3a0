/**
 * pdf.js's resources, shipped with the renderer (review I-P1): the packed CMaps (CJK and other
 * predefined encodings), the standard fonts (the 14 fonts a PDF may use without embedding them:
 * Helvetica, Times, Courier, Symbol, ZapfDingbats, as Foxit's and Liberation's files) and the
 * image decoders' JavaScript builds (JPEG 2000 and JBIG2; the WebAssembly builds are not shipped:
 * the content policy has no 'wasm-unsafe-eval', so pdf.js runs the JavaScript ones). Copied from
 * pdfjs-dist into out/renderer/pdfjs/, so they are served by the app itself ('self') and a
 * preview fetches nothing from anywhere else. Their licences go with them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Where they sit under out/renderer (pdfPages.ts reads them from there). */
export const PDFJS_ASSETS_FOLDER = 'pdfjs';

const SHIPPED: { from: string; keep: (file: string) => boolean }[] = [
  { from: 'cmaps', keep: (file) => file.endsWith('.bcmap') || file.startsWith('LICENSE') },
  { from: 'standard_fonts', keep: () => true },
  { from: 'wasm', keep: (file) => file.endsWith('_nowasm_fallback.js') || file.startsWith('LICENSE') },
];

interface EmittingContext {
  emitFile(file: { type: 'asset'; fileName: string; source: Uint8Array }): string;
}

/** pdfjs-dist's folder, as Node resolves it (the config is bundled elsewhere before it runs). */
function pdfjsFolder(): string {
  return dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
}

export function pdfjsAssetsPlugin(packageFolder: string = pdfjsFolder()) {
  return {
    name: 'ledgerdesk-pdfjs-assets',
    apply: 'build' as const,
    generateBundle(this: EmittingContext): void {
      for (const { from, keep } of SHIPPED) {
        for (const file of readdirSync(join(packageFolder, from)).filter(keep)) {
          this.emitFile({
            type: 'asset',
            fileName: `${PDFJS_ASSETS_FOLDER}/${from}/${file}`,
            source: readFileSync(join(packageFolder, from, file)),
          });
        }
      }
    },
  };
}
