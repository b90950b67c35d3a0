/**
 * PDF pages drawn to canvases with pdf.js (issue 24, item 3), inside the window's content policy:
 * the worker is a file of the app's own bundle (script-src 'self'), pdf.js 6 has no eval path at
 * all (no `new Function`, nothing for 'unsafe-eval' to allow). Its resources are the app's own
 * files too (scripts/pdfjsAssetsPlugin.ts, review I-P1), fetched from 'self' and nowhere else:
 * the packed CMaps, the standard fonts (a PDF that names Helvetica or ZapfDingbats without
 * embedding it is drawn with the same font files on every machine, never the system's
 * substitutes) and the JavaScript builds of the JPEG 2000 and JBIG2 decoders (WebAssembly is off:
 * the policy has no 'wasm-unsafe-eval'). Loaded on first use, so the app's start does not pay
 * for pdf.js.
 */
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

export interface PdfPages {
  pageCount: number;
  /** Draws page `number` (1-based) on `canvas`, `cssWidth` pixels wide on screen. */
  draw: (number: number, canvas: HTMLCanvasElement, cssWidth: number) => Promise<void>;
  close: () => Promise<void>;
}

export async function openPdf(bytes: Uint8Array): Promise<PdfPages> {
  const pdfjs = await import('pdfjs-dist');
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
  // Absolute: the worker resolves the decoders' address against its own, not the page's.
  const resources = (folder: string): string => new URL(`./pdfjs/${folder}/`, window.document.baseURI).href;
  // pdf.js takes the buffer over to its worker: a copy keeps the caller's bytes usable.
  const task = pdfjs.getDocument({
    data: bytes.slice(),
    // The page fetches the CMaps and fonts (from 'self') and hands them to the worker.
    useWorkerFetch: false,
    enableXfa: false,
    stopAtErrors: true,
    cMapUrl: resources('cmaps'),
    cMapPacked: true,
    standardFontDataUrl: resources('standard_fonts'),
    useSystemFonts: false,
    wasmUrl: resources('wasm'),
    useWasm: false,
  });
  const document = await task.promise;
  return {
    pageCount: document.numPages,
    async draw(number, canvas, cssWidth) {
      const page = await document.getPage(number);
      const unscaled = page.getViewport({ scale: 1 });
      const ratio = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: (cssWidth / unscaled.width) * ratio });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${String(Math.floor(viewport.width / ratio))}px`;
      canvas.style.height = `${String(Math.floor(viewport.height / ratio))}px`;
      await page.render({ canvas, viewport }).promise;
      page.cleanup();
    },
    async close() {
      await task.destroy();
    },
  };
}
