/**
 * Small PDFs that any reader opens, written by hand for the preview tests: one page, text lines
 * in fonts the PDF names but does not embed (a reader draws them from its own copies of the
 * standard fonts), and a cross-reference table with true offsets.
 */

/** The file around these objects (1: catalog, then whatever the caller numbers after it). */
function pdfOf(objects: readonly string[]): Buffer {
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

/** One page, each line `[standard font, text]` at 32 (or 24 for a single line) points, 80 points apart from the top. */
export function textPdf(lines: readonly (readonly [font: string, text: string])[], size = 32, top = 700): Buffer {
  const stream = lines
    .map(
      ([, text], index) =>
        `BT /F${String(index + 1)} ${String(size)} Tf 72 ${String(top - index * 80)} Td (${text}) Tj ET`,
    )
    .join('\n');
  const fonts = lines.map((_line, index) => `/F${String(index + 1)} ${String(5 + index)} 0 R`).join(' ');
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << ${fonts} >> >> >>`,
    `<< /Length ${String(stream.length)} >>\nstream\n${stream}\nendstream`,
    ...lines.map(([font]) => `<< /Type /Font /Subtype /Type1 /BaseFont /${font} >>`),
  ]);
}

/** One line of Helvetica, as a certificate or a letter would be. */
export function onePagePdf(text: string): Buffer {
  return textPdf([['Helvetica', text]], 24, 720);
}
