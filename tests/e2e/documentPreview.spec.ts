/**
 * Document previews end to end (issue 24, item 3), in Debian's Chromium under the app's own
 * content policy: an applicant names a PNG and a one-page PDF; from the drawer, Preview shows
 * the image from a blob: URL and draws the PDF with pdf.js (its worker from the bundle), Escape
 * closes the dialog and focus goes back to its button. The sandbox's own seeded scans (a
 * specimen passport PNG and driver's license PDF, drawn by code) really draw: the image's
 * pixels and the PDF's canvas are checked not blank; their previews are pictured at 1280 and
 * 1024 px and at 200% zoom, light and dark, each through the accessibility gate. Any console
 * error or policy violation fails the run (the harness records them). Pictures in
 * test-results/screens/preview-*.png.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type BrowserContextOptions, type Locator, type Page } from '@playwright/test';
import type { Router } from '../../src/main/ipc/routerCore.ts';
import type { RunningServices } from '../../src/main/app/services.ts';
import { solidPng } from '../../src/sandbox/seed/pngImage.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { openHarnessPage, showScreen } from './support/harnessRouter.ts';
import { startHarnessServices } from './support/harnessServices.ts';
import type { LedgerdeskPage } from './support/ledgerdeskPage.ts';
import { serveRenderer, type RendererServer } from './support/rendererServer.ts';
import { SCREENS_FOLDER, shoot } from './support/screens.ts';
import { onePagePdf, textPdf } from './support/pdfFiles.ts';
import { applicationRow } from './support/applicationRows.ts';

// Timeouts only stop a hung run; nothing here measures time.
test.describe.configure({ mode: 'serial', timeout: 300_000 });

let folder: string;
let sandbox: RunningSandbox;
let services: RunningServices;
let renderer: RendererServer;
let router: Router;
const harnesses: LedgerdeskPage[] = [];
const problems: string[] = [];
const seeded = { png: '', pdf: '', application: '', fontsPdf: '', fontsApplication: '' };
/** A person the sandbox seeded with its specimen passport, and one with its specimen license. */
const specimens = {
  passport: { document: '', application: '', person: '' },
  license: { document: '', application: '', person: '' },
};
/** The app's default window at 200% zoom: half the CSS pixels, twice the density (as accessibility.spec.ts). */
const ZOOM_200: BrowserContextOptions = { viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 };

/** Three lines in standard fonts the PDF does not embed: Helvetica, Symbol, ZapfDingbats. */
function standardFontsPdf(): Buffer {
  return textPdf([
    ['Helvetica', 'Helvetica names this line'],
    ['Symbol', 'abgdp'],
    ['ZapfDingbats', '3456'],
  ]);
}

function basic(): string {
  return `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64')}`;
}

async function get<Answer>(path: string): Promise<Answer> {
  const answer = await fetch(`${sandbox.baseUrl}${path}`, { headers: { authorization: basic() } });
  expect(answer.status).toBe(200);
  return (await answer.json()) as Answer;
}

/** A seeded person whose identity document is of this type, and an application naming them. */
async function seededSpecimen(type: 'passport' | 'drivers_license'): Promise<(typeof specimens)['passport']> {
  const people = await get<{ data: { id: string; first_name: string; last_name: string; document_ids?: string[] }[] }>(
    '/apply/person_application?page_size=1000',
  );
  const applications = await get<{ data: { id: string; primary_person_application_id: string }[] }>(
    '/apply/account_application?page_size=1000',
  );
  // Only the people the sandbox seeded (not the one this spec adds with its own files).
  const seededPeople = new Set(sandbox.demo.personApplications);
  for (const person of people.data.filter((entry) => seededPeople.has(entry.id))) {
    const document = person.document_ids?.[0];
    const application = applications.data.find((entry) => entry.primary_person_application_id === person.id);
    if (document === undefined || application === undefined) continue;
    if ((await get<{ type: string }>(`/document/${document}`)).type !== type) continue;
    return { document, application: application.id, person: `${person.first_name} ${person.last_name}` };
  }
  throw new Error(`the sandbox seeded no person with a ${type} named by an application`);
}

/** How many distinct colours an image or canvas element shows (a blank shows one). */
async function coloursOf(element: Locator): Promise<number> {
  return element.evaluate((shown) => {
    // Typed by hand: the e2e project typechecks without the DOM library.
    interface Canvas {
      width: number;
      height: number;
      getContext: (kind: '2d') => {
        drawImage: (source: unknown, x: number, y: number) => void;
        getImageData: (x: number, y: number, width: number, height: number) => { data: ArrayLike<number> };
      } | null;
    }
    const source = shown as unknown as { tagName: string; naturalWidth: number; naturalHeight: number };
    let canvas = shown as unknown as Canvas;
    if (source.tagName === 'IMG') {
      const made = (globalThis as unknown as { document: { createElement: (tag: string) => Canvas } }).document;
      canvas = made.createElement('canvas');
      canvas.width = source.naturalWidth;
      canvas.height = source.naturalHeight;
      canvas.getContext('2d')?.drawImage(shown, 0, 0);
    }
    const pixels = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? [];
    const colours = new Set<string>();
    for (let index = 0; index < pixels.length; index += 4) {
      colours.add(`${String(pixels[index])},${String(pixels[index + 1])},${String(pixels[index + 2])}`);
    }
    return colours.size;
  });
}

/** Opens the drawer of an application found by its id. */
async function openApplication(page: Page, applicationId: string): Promise<Locator> {
  await page.getByRole('searchbox', { name: 'Search applications' }).fill(applicationId);
  const grid = page.getByRole('grid', { name: 'Account applications' });
  await applicationRow(grid, applicationId).click();
  return page.getByRole('complementary', { name: 'Details' });
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
  const fontsFile = await post('/file', standardFontsPdf(), 'application/pdf');
  seeded.fontsPdf = await post('/document', { type: 'other', name: 'Standard fonts', file_id: fontsFile, fields: {} });
  const fontsPerson = await post('/apply/person_application', {
    first_name: 'Nora',
    last_name: 'Fontaine',
    date_of_birth: '1979-03-14',
    email_address: 'nora@example.com',
    phone_number: '2025550187',
    citizenship: 'US',
    physical_address: { street_line_1: '9 Type St', city: 'Boston', state: 'MA', postal_code: '02110' },
    document_ids: [seeded.fontsPdf],
  });
  seeded.fontsApplication = await post('/apply/account_application', {
    primary_person_application_id: fontsPerson,
    product: 'personal_checking',
  });
  specimens.passport = await seededSpecimen('passport');
  specimens.license = await seededSpecimen('drivers_license');
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
  await applicationRow(grid, seeded.application).click();
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

test('a PDF naming standard fonts it does not embed draws them from the app’s own font files (I-P1)', async ({
  browser,
}) => {
  const { context, page } = await openHarnessPage(
    browser,
    'light',
    { router, rendererUrl: renderer.url, record: { harnesses, problems } },
    { viewport: { width: 1280, height: 800 } },
  );
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  await showScreen(page, renderer.url, 'account-applications');
  await page.getByRole('button', { name: 'Sync the book' }).click();
  await expect(page.getByRole('button', { name: 'Sync the book' })).toBeEnabled({ timeout: 120_000 });
  const drawer = await openApplication(page, seeded.fontsApplication);
  await drawer.getByRole('button', { name: `Preview document ${seeded.fontsPdf}` }).click();
  const dialog = page.getByRole('dialog', { name: `Document ${seeded.fontsPdf}` });
  const pageOne = dialog.getByRole('img', { name: `Document ${seeded.fontsPdf} of Nora Fontaine, page 1 of 1` });
  await expect(pageOne).toBeVisible();
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  // Each line's text is drawn: dark pixels in each line's band of the page.
  const inkPerLine = (): Promise<number[]> =>
    pageOne.evaluate((element) => {
      const canvas = element as unknown as {
        width: number;
        height: number;
        getContext: (kind: '2d') => {
          getImageData: (x: number, y: number, width: number, height: number) => { data: ArrayLike<number> };
        } | null;
      };
      const context2d = canvas.getContext('2d');
      // The page is 792 points tall; the lines' baselines are at 700, 620 and 540 points.
      const scale = canvas.height / 792;
      return [700, 620, 540].map((baseline) => {
        const top = Math.floor((792 - baseline - 30) * scale);
        const band = context2d?.getImageData(0, top, canvas.width, Math.ceil(40 * scale)).data ?? [];
        let dark = 0;
        for (let index = 0; index < band.length; index += 4) if ((band[index] ?? 255) < 100) dark += 1;
        return dark;
      });
    });
  await expect.poll(async () => Math.min(...(await inkPerLine()))).toBeGreaterThan(20);
  // Drawn with the standard fonts the app ships (fetched from its own origin), not a system substitute.
  const fontFiles = requested.filter((url) => url.includes('/pdfjs/standard_fonts/'));
  for (const file of ['LiberationSans-Regular.ttf', 'FoxitSymbol.pfb', 'FoxitDingbats.pfb']) {
    expect(fontFiles).toContain(new URL(`pdfjs/standard_fonts/${file}`, renderer.url).href);
  }
  const fromFiles = await page.evaluate(() =>
    [...(globalThis as unknown as { document: { fonts: Iterable<{ family: string }> } }).document.fonts]
      .map((face) => face.family)
      .filter((family) => /^g_d\d+_f\d+$/.test(family)),
  );
  expect(fromFiles.length).toBeGreaterThanOrEqual(3);
  // Nothing was fetched from anywhere but the app itself.
  const own = new URL(renderer.url).origin;
  expect(requested.filter((url) => !url.startsWith(`${own}/`) && !/^(blob|data):/.test(url))).toEqual([]);
  await shoot(page, 'preview-standard-fonts-light-1280');
  await page.keyboard.press('Escape');
  await context.close();
});

test('the sandbox seeded scans really draw: the specimen passport and driver license', async ({ browser }) => {
  const { context, page } = await openHarnessPage(
    browser,
    'light',
    { router, rendererUrl: renderer.url, record: { harnesses, problems } },
    { viewport: { width: 1280, height: 800 } },
  );
  await showScreen(page, renderer.url, 'account-applications');
  // The book was synced by the test before; synced again here so this test stands alone.
  await page.getByRole('button', { name: 'Sync the book' }).click();
  await expect(page.getByRole('button', { name: 'Sync the book' })).toBeEnabled({ timeout: 120_000 });

  let drawer = await openApplication(page, specimens.passport.application);
  const passport = drawer.getByRole('button', { name: `Preview document ${specimens.passport.document}` });
  await passport.click();
  const imageDialog = page.getByRole('dialog', { name: `Document ${specimens.passport.document}` });
  const image = imageDialog.getByRole('img', {
    name: `Document ${specimens.passport.document} of ${specimens.passport.person}`,
  });
  await expect(image).toBeVisible();
  await expect(imageDialog.getByRole('alert')).toHaveCount(0);
  expect(await image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth)).toBe(420);
  // A picture: paper, navy band, ink, red stamp, grey photo (a blank or a broken image shows one or none).
  expect(await coloursOf(image)).toBeGreaterThanOrEqual(5);
  await page.keyboard.press('Escape');
  await expect(passport).toBeFocused();
  await page.keyboard.press('Escape');

  drawer = await openApplication(page, specimens.license.application);
  const license = drawer.getByRole('button', { name: `Preview document ${specimens.license.document}` });
  await license.click();
  const pdfDialog = page.getByRole('dialog', { name: `Document ${specimens.license.document}` });
  const pageOne = pdfDialog.getByRole('img', {
    name: `Document ${specimens.license.document} of ${specimens.license.person}, page 1 of 1`,
  });
  await expect(pageOne).toBeVisible();
  await expect(pdfDialog.getByRole('alert')).toHaveCount(0);
  await expect.poll(() => coloursOf(pageOne)).toBeGreaterThanOrEqual(5);
  await page.keyboard.press('Escape');
  await expect(license).toBeFocused();
  await context.close();
});

for (const theme of ['light', 'dark'] as const) {
  for (const [size, options] of [
    ['1280', { viewport: { width: 1280, height: 800 } }],
    ['1024', { viewport: { width: 1024, height: 768 } }],
    ['zoom200', ZOOM_200],
  ] as const) {
    test(`pictures the seeded scans' previews at ${size}, ${theme}`, async ({ browser }) => {
      const { context, page } = await openHarnessPage(
        browser,
        theme,
        { router, rendererUrl: renderer.url, record: { harnesses, problems } },
        options,
      );
      await showScreen(page, renderer.url, 'account-applications');
      for (const [name, specimen] of [
        ['passport', specimens.passport],
        ['license', specimens.license],
      ] as const) {
        const drawer = await openApplication(page, specimen.application);
        const button = drawer.getByRole('button', { name: `Preview document ${specimen.document}` });
        await button.click();
        const dialog = page.getByRole('dialog', { name: `Document ${specimen.document}` });
        const shown = dialog.getByRole('img', { name: new RegExp(`^Document ${specimen.document} of `) }).first();
        await expect(shown).toBeVisible();
        await expect.poll(() => coloursOf(shown)).toBeGreaterThanOrEqual(5);
        await shoot(page, `preview-seeded-${name}-${theme}-${size}`);
        await page.keyboard.press('Escape');
        await expect(button).toBeFocused();
        await page.keyboard.press('Escape');
      }
      await context.close();
    });
  }
}
