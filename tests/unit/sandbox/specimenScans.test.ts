/**
 * The sandbox's seeded identity scans (issue 24) are real files a viewer draws: the passport a
 * PNG whose pixels decode to a picture (not one colour), the driver's license a PDF that pdf.js
 * opens, one page of filled shapes and no font, so nothing is fetched to show it. Both say
 * SPECIMEN on their face (drawn, so checked here through the glyphs they are drawn with).
 */
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { isPng } from '../../../src/sandbox/seed/pngImage.ts';
import { eachDot } from '../../../src/sandbox/seed/specimenGlyphs.ts';
import { specimenLicensePdf, specimenPassportPng, specimenScans } from '../../../src/sandbox/seed/specimenScans.ts';

/** The PNG's size and its RGBA pixels (filter type 0 on every row, as rgbaPng writes). */
function decodePng(bytes: Buffer): { width: number; height: number; pixels: Buffer } {
  let at = 8;
  let width = 0;
  let height = 0;
  const data: Buffer[] = [];
  while (at < bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('ascii', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      expect([body[8], body[9]]).toEqual([8, 6]);
    }
    if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  const rows = inflateSync(Buffer.concat(data));
  expect(rows.length).toBe((width * 4 + 1) * height);
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    expect(rows[y * (width * 4 + 1)]).toBe(0);
    rows.copy(pixels, y * width * 4, y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1));
  }
  return { width, height, pixels };
}

describe('the seeded specimen scans', () => {
  it('the passport is a PNG with a picture in it', () => {
    const png = specimenPassportPng();
    expect(isPng(png)).toBe(true);
    const { width, height, pixels } = decodePng(png);
    expect([width, height]).toEqual([420, 280]);
    const colours = new Set<string>();
    for (let at = 0; at < pixels.length; at += 4) colours.add(pixels.subarray(at, at + 3).join(','));
    // Paper, navy, ink, white, red, grey, silhouette: a picture, not a blank.
    expect(colours.size).toBeGreaterThanOrEqual(6);
    // Every pixel opaque.
    for (let at = 3; at < pixels.length; at += 4) expect(pixels[at]).toBe(255);
  });

  it('the driver license is a PDF pdf.js opens: one page, shapes only, no font', async () => {
    const pdf = specimenLicensePdf();
    expect(pdf.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    const text = pdf.toString('latin1');
    expect(text).not.toMatch(/\/Font/);
    // The cross-reference table points at each object.
    const xref = Number(/startxref\n(\d+)/.exec(text)?.[1]);
    expect(text.slice(xref, xref + 4)).toBe('xref');
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const document = await pdfjs.getDocument({ data: new Uint8Array(pdf) }).promise;
    expect(document.numPages).toBe(1);
    const page = await document.getPage(1);
    expect(page.view).toEqual([0, 0, 400, 260]);
    const operators = await page.getOperatorList();
    // Filled paths only: the background, the band, the photo and every dot of the letters.
    expect(operators.fnArray.length).toBeGreaterThan(20);
    expect((await page.getTextContent()).items).toEqual([]);
    const { info } = (await document.getMetadata()) as { info: { Title?: string } };
    expect(info.Title).toMatch(/specimen/i);
    await document.cleanup();
  });

  it('says SPECIMEN on its face: the glyphs it is drawn with spell it', () => {
    const dots: string[] = [];
    eachDot('SPECIMEN', (column, row) => dots.push(`${String(column)},${String(row)}`));
    expect(dots.length).toBeGreaterThan(80);
    expect(new Set(dots).size).toBe(dots.length);
    // An unknown character is a space, never a dot.
    const none: string[] = [];
    eachDot('~€', (column, row) => none.push(`${String(column)},${String(row)}`));
    expect(none).toEqual([]);
  });

  it('is drawn once per process', () => {
    expect(specimenScans()).toBe(specimenScans());
  });
});
