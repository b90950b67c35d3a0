/**
 * The sandbox's seeded identity scans, drawn by code at start so every preview of a seeded
 * document really draws: a passport as a PNG and a driver's license as a one-page PDF. Both
 * say SPECIMEN and NOT A REAL DOCUMENT on their face; nothing is copied from elsewhere and no
 * real person's data is in them. The PDF draws its letters as filled squares (specimenGlyphs.ts),
 * so it needs no font, embedded or standard, and a viewer fetches nothing to show it.
 */
import { rgbaPng } from './pngImage.ts';
import { eachDot, GLYPH_HEIGHT } from './specimenGlyphs.ts';

type Rgb = readonly [number, number, number];

const NAVY: Rgb = [22, 66, 120];
const PAPER: Rgb = [244, 240, 226];
const INK: Rgb = [30, 32, 44];
const WHITE: Rgb = [255, 255, 255];
const STAMP_RED: Rgb = [176, 32, 36];
const PHOTO_GREY: Rgb = [205, 208, 216];
const SILHOUETTE: Rgb = [120, 126, 140];

/** An RGBA raster the passport is drawn on. */
class Raster {
  readonly width: number;
  readonly height: number;
  readonly pixels: Buffer;
  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.pixels = Buffer.alloc(width * height * 4, 255);
  }

  dot(x: number, y: number, rgb: Rgb): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const at = (y * this.width + x) * 4;
    this.pixels[at] = rgb[0];
    this.pixels[at + 1] = rgb[1];
    this.pixels[at + 2] = rgb[2];
  }

  box(x: number, y: number, width: number, height: number, rgb: Rgb): void {
    for (let row = y; row < y + height; row += 1)
      for (let column = x; column < x + width; column += 1) this.dot(column, row, rgb);
  }

  /** A filled ellipse, clipped to the box given. */
  ellipse(
    cx: number,
    cy: number,
    rx: number,
    ry: number,
    rgb: Rgb,
    clip: { x: number; y: number; w: number; h: number },
  ): void {
    for (let y = Math.max(clip.y, cy - ry); y < Math.min(clip.y + clip.h, cy + ry); y += 1) {
      for (let x = Math.max(clip.x, cx - rx); x < Math.min(clip.x + clip.w, cx + rx); x += 1) {
        if (((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1) this.dot(x, y, rgb);
      }
    }
  }

  text(x: number, y: number, text: string, scale: number, rgb: Rgb): void {
    eachDot(text, (column, row) => {
      this.box(x + column * scale, y + row * scale, scale, scale, rgb);
    });
  }
}

/** The passport specimen, 420 × 280 pixels. */
export function specimenPassportPng(): Buffer {
  const image = new Raster(420, 280);
  image.box(0, 0, 420, 280, NAVY);
  image.box(4, 4, 412, 272, PAPER);
  image.box(4, 4, 412, 40, NAVY);
  image.text(16, 14, 'SPECIMEN PASSPORT', 3, WHITE);
  const photo = { x: 20, y: 56, w: 100, h: 124 };
  image.box(photo.x, photo.y, photo.w, photo.h, PHOTO_GREY);
  image.ellipse(70, 100, 22, 26, SILHOUETTE, photo);
  image.ellipse(70, 176, 42, 40, SILHOUETTE, photo);
  const lines = ['SURNAME: SPECIMEN', 'GIVEN NAMES: SANDBOX', 'NATIONALITY: USA', 'BORN: 01 JAN 1990', 'NO: S0000001'];
  lines.forEach((line, index) => {
    image.text(136, 60 + index * 22, line, 2, INK);
  });
  image.text(136, 176, 'NOT A REAL DOCUMENT', 2, STAMP_RED);
  image.text(20, 214, 'P<USASPECIMEN<<SANDBOX<<<<<<<', 2, INK);
  image.text(20, 240, 'S0000001<0USA9001011<<<<<<<<', 2, INK);
  return rgbaPng(image.width, image.height, image.pixels);
}

/** PDF colour operands for an RGB colour. */
function pdfColour(rgb: Rgb): string {
  return rgb.map((channel) => (channel / 255).toFixed(3)).join(' ');
}

/**
 * The driver's license specimen: a one-page PDF, 400 × 260 points, drawn with filled
 * rectangles only. Written with its cross-reference table's byte offsets, so any viewer opens it.
 */
export function specimenLicensePdf(): Buffer {
  const width = 400;
  const height = 260;
  const operations: string[] = [];
  // y counted from the top, as in the raster; PDF's origin is the bottom left.
  const fill = (x: number, y: number, w: number, h: number, rgb: Rgb): void => {
    operations.push(`${pdfColour(rgb)} rg ${String(x)} ${String(height - y - h)} ${String(w)} ${String(h)} re f`);
  };
  const text = (x: number, y: number, line: string, scale: number, rgb: Rgb): void => {
    const squares: string[] = [];
    eachDot(line, (column, row) => {
      squares.push(
        `${String(x + column * scale)} ${String(height - (y + row * scale) - scale)} ${String(scale)} ${String(scale)} re`,
      );
    });
    if (squares.length > 0) operations.push(`${pdfColour(rgb)} rg ${squares.join(' ')} f`);
  };
  fill(0, 0, width, height, NAVY);
  fill(4, 4, width - 8, height - 8, PAPER);
  fill(4, 4, width - 8, 36, NAVY);
  text(14, 4 + (36 - GLYPH_HEIGHT * 3) / 2, "SPECIMEN DRIVER'S LICENSE", 2.5, WHITE);
  fill(18, 54, 92, 116, PHOTO_GREY);
  fill(48, 74, 32, 36, SILHOUETTE);
  fill(32, 118, 64, 52, SILHOUETTE);
  const lines = ['DL NO: D0000001', 'NAME: SANDBOX SPECIMEN', 'DOB: 01/01/1990', 'CLASS: C', 'EXPIRES: 01/01/2099'];
  lines.forEach((line, index) => {
    text(126, 58 + index * 20, line, 2, INK);
  });
  text(126, 166, 'NOT A REAL DOCUMENT', 2, STAMP_RED);
  text(18, 196, 'ISSUED BY THE LEDGERDESK SANDBOX BANK', 1.5, INK);
  text(18, 214, 'FOR TESTING ONLY', 1.5, INK);
  const content = operations.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${String(width)} ${String(height)}] /Resources << >> /Contents 4 0 R >>`,
    `<< /Length ${String(Buffer.byteLength(content, 'latin1'))} >>\nstream\n${content}\nendstream`,
    "<< /Title (Specimen driver's license - not a real document) /Producer (Ledgerdesk sandbox) >>",
  ];
  let pdf = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${String(index + 1)} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${String(objects.length + 1)}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${String(objects.length + 1)} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${String(xref)}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

let drawn: { passport: Buffer; license: Buffer } | null = null;

/** Both specimens, drawn once per process (a sandbox seeds each new data file with them). */
export function specimenScans(): { passport: Buffer; license: Buffer } {
  drawn ??= { passport: specimenPassportPng(), license: specimenLicensePdf() };
  return drawn;
}
