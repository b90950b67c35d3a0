/**
 * Prints a self-contained HTML page (the review report) to PDF with Chromium: an invisible,
 * sandboxed window with JavaScript off and no preload loads the page from a data: URL (it
 * fetches nothing: its own CSP says so), prints it, and is destroyed.
 */
import { BrowserWindow } from 'electron';

export async function printHtmlToPdf(html: string): Promise<Uint8Array> {
  const window = new BrowserWindow({
    show: false,
    webPreferences: {
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      javascript: false,
      offscreen: true,
      // Like the main window (Electronegativity's AUXCLICK check): no middle-click new windows.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  try {
    await window.loadURL(`data:text/html;charset=utf-8;base64,${Buffer.from(html, 'utf8').toString('base64')}`);
    // The page says its paper and which pages are landscape (the report's @page rules).
    return await window.webContents.printToPDF({
      printBackground: true,
      preferCSSPageSize: true,
      generateDocumentOutline: true,
    });
  } finally {
    window.destroy();
  }
}
