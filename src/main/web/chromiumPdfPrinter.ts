/**
 * The review report as PDF in web mode. The desktop app prints with Electron's own Chromium
 * (electron/pdfPrinter.ts); web mode has no Chromium of its own, so it prints with the machine's
 * Chromium or Google Chrome, driven by playwright-core (already installed for the e2e tests):
 * a headless browser with JavaScript off and no network loads the self-contained report,
 * prints it to A4 with a document outline, and closes. One browser per report: a report is
 * saved rarely, and nothing stays running between them.
 *
 * Where no such browser is found, web mode offers no PDF printer and the report dialog says why
 * (HTML and CSV still save; the HTML prints to PDF from any browser's Print dialog).
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The browsers looked for on PATH, in order; LEDGERDESK_CHROMIUM names another. */
const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Chromium to print with, or null when this machine has none. */
export function findChromium(environment: NodeJS.ProcessEnv = process.env): string | null {
  const named = environment['LEDGERDESK_CHROMIUM'];
  if (named !== undefined && named !== '') return executable(named) ? named : null;
  for (const command of CANDIDATES) {
    for (const folder of (environment['PATH'] ?? '').split(delimiter)) {
      if (folder !== '' && executable(join(folder, command))) return join(folder, command);
    }
  }
  return null;
}

/** Flags for a headless print job run as any user, root included (as the e2e tests run it). */
const CHROMIUM_ARGUMENTS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Prints self-contained HTML to PDF with the Chromium at `executablePath`. */
function chromiumPdfPrinter(executablePath: string): (html: string) => Promise<Uint8Array> {
  return async (html) => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGUMENTS });
    try {
      const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
      // The report fetches nothing (its own CSP says so); anything it tried would be refused here too.
      await context.route('**/*', (route) => route.abort());
      const page = await context.newPage();
      await page.setContent(html, { waitUntil: 'load' });
      return new Uint8Array(await page.pdf({ format: 'A4', printBackground: true, outline: true, tagged: true }));
    } finally {
      await browser.close();
    }
  };
}

/** Web mode's PDF printer: the machine's Chromium, or none (the report dialog then says why). */
export function webPdfPrinter(
  environment: NodeJS.ProcessEnv = process.env,
): ((html: string) => Promise<Uint8Array>) | undefined {
  const found = findChromium(environment);
  return found === null ? undefined : chromiumPdfPrinter(found);
}
