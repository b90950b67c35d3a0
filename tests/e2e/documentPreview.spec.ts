/**
 * Document previews end to end (issue 24, item 3), in Debian's Chromium under the app's own
 * content policy: an applicant names a PNG and a one-page PDF; from the drawer, Preview shows
 * the image from a blob: URL and draws the PDF with pdf.js (its worker from the bundle), Escape
 * closes the dialog and focus goes back to its button. Any console error or policy violation
 * fails the run (the harness records them). Pictures in test-results/screens/preview-*.png.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Router } from '../../src/main/ipc/routerCore.ts';
import type { RunningServices } from '../../src/main/shell/services.ts';
import { solidPng } from '../../src/sandbox/seed/pngImage.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { openHarnessPage, showScreen } from './support/harnessRouter.ts';
import { startHarnessServices } from './support/harnessServices.ts';
import type { LedgerdeskPage } from './support/ledgerdeskPage.ts';
import { serveRenderer, type RendererServer } from './support/rendererServer.ts';
import { SCREENS_FOLDER, shoot } from './support/screens.ts';

// Timeouts only stop a hung run; nothing here measures time.
test.describe.configure({ mode: 'serial', timeout: 300_000 });

let folder: string;
let sandbox: RunningSandbox;
let services: RunningServices;
let renderer: RendererServer;
let router: Router;
const harnesses: LedgerdeskPage[] = [];
const problems: string[] = [];
const seeded = { png: '', pdf: '', application: '' };

/** A one-page PDF that any reader opens: objects and a cross-reference table with true offsets. */
function onePagePdf(text: string): Buffer {
  const stream = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${String(stream.length)} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${String(index + 1)} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${String(objects.length + 1)}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${String(objects.length + 1)} /Root 1 0 R >>\nstartxref\n${String(xref)}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

async function post(path: string, body: Buffer | object, contentType = 'application/json'): Promise<string> {
  const answer = await fetch(`${sandbox.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64')}`,
      'content-type': contentType,
    },
    body: Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { id: string }).id;
}

test.beforeAll(async () => {
  mkdirSync(SCREENS_FOLDER, { recursive: true });
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-e2e-preview-'));
  renderer = await serveRenderer();
  sandbox = await startSandbox({ port: 0, dataFile: join(folder, 'sandbox.db'), retryBaseMs: 40 });
  ({ services, router } = await startHarnessServices({
    folder,
    sandbox,
    rendererUrl: renderer.url,
    send: (channel, payload) => {
      for (const harness of harnesses) harness.send(channel, payload);
    },
  }));
  const pngFile = await post('/file', solidPng(240, 150, [22, 66, 120]), 'image/png');
  const pdfFile = await post('/file', onePagePdf('Certificate of formation'), 'application/pdf');
  seeded.png = await post('/document', { type: 'passport', name: 'Passport scan', file_id: pngFile, fields: {} });
  seeded.pdf = await post('/document', { type: 'other', name: 'Formation', file_id: pdfFile, fields: {} });
  const person = await post('/apply/person_application', {
    first_name: 'Grace',
    last_name: 'Brewster',
    date_of_birth: '1986-12-09',
    email_address: 'grace@example.com',
    phone_number: '2025550123',
    citizenship: 'US',
    physical_address: { street_line_1: '1 Main St', city: 'Washington', state: 'DC', postal_code: '20500' },
    document_ids: [seeded.png, seeded.pdf],
  });
  seeded.application = await post('/apply/account_application', {
    primary_person_application_id: person,
    product: 'personal_checking',
  });
});

test.afterAll(async () => {
  await services.stop();
  await sandbox.close().catch(() => undefined);
  await renderer.close();
  rmSync(folder, { recursive: true, force: true });
  expect(problems).toEqual([]);
});

test('previews an image and a PDF from the applicant drawer', async ({ browser }) => {
  const { context, page } = await openHarnessPage(
    browser,
    'light',
    { router, rendererUrl: renderer.url, record: { harnesses, problems } },
    { viewport: { width: 1280, height: 800 } },
  );
  await showScreen(page, renderer.url, 'account-applications');
  await page.getByRole('button', { name: 'Sync the book' }).click();
  await expect(page.getByRole('button', { name: 'Sync the book' })).toBeEnabled({ timeout: 120_000 });
  await page.getByRole('searchbox', { name: 'Search applications' }).fill('Brewster');
  const grid = page.getByRole('grid', { name: 'Account applications' });
  await grid.locator('.vtable-row', { hasText: seeded.application }).click();
  const drawer = page.getByRole('complementary', { name: 'Details' });
  const card = drawer.getByRole('article', { name: 'Person Grace Brewster' });
  await expect(card).toBeVisible();

  const imageButton = card.getByRole('button', { name: `Preview document ${seeded.png}` });
  await imageButton.click();
  const imageDialog = page.getByRole('dialog', { name: `Document ${seeded.png}` });
  const image = imageDialog.getByRole('img', { name: `Document ${seeded.png} of Grace Brewster` });
  await expect(image).toBeVisible();
  expect(await image.getAttribute('src')).toMatch(/^blob:/);
  expect(await image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth)).toBe(240);
  await expect(imageDialog).toContainText('fetched from the bank just now');
  await shoot(page, 'preview-image-light-1280');
  await page.keyboard.press('Escape');
  await expect(imageDialog).toBeHidden();
  await expect(imageButton).toBeFocused();

  const pdfButton = card.getByRole('button', { name: `Preview document ${seeded.pdf}` });
  await pdfButton.click();
  const pdfDialog = page.getByRole('dialog', { name: `Document ${seeded.pdf}` });
  const pageOne = pdfDialog.getByRole('img', { name: `Document ${seeded.pdf} of Grace Brewster, page 1 of 1` });
  await expect(pageOne).toBeVisible();
  await expect(pdfDialog.getByRole('alert')).toHaveCount(0);
  // Drawn: the canvas holds dark text pixels on its white page, not a blank.
  await expect
    .poll(() =>
      pageOne.evaluate((element) => {
        // Typed by hand: the e2e project typechecks without the DOM library.
        const canvas = element as unknown as {
          width: number;
          height: number;
          getContext: (kind: '2d') => {
            getImageData: (x: number, y: number, width: number, height: number) => { data: ArrayLike<number> };
          } | null;
        };
        const pixels = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? [];
        let dark = 0;
        for (let index = 0; index < pixels.length; index += 4) if ((pixels[index] ?? 255) < 100) dark += 1;
        return dark;
      }),
    )
    .toBeGreaterThan(50);
  await shoot(page, 'preview-pdf-light-1280');
  await page.keyboard.press('Escape');
  await expect(pdfDialog).toBeHidden();
  await expect(pdfButton).toBeFocused();
  await context.close();
});
