import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';

export interface PdfBombOptions {
  /** Pages of the document, each showing the same content stream. */
  pages: number;
  /** Size of that content stream once inflated; compressed it is a few hundred times smaller. */
  streamBytes: number;
}

/**
 * A PDF bomb as found in the wild, small on the wire: many pages that all reference one large Flate-compressed
 * content stream full of text operators, so a reader inflates and interprets the whole stream once per page.
 * Offsets in the cross-reference table are computed, as readers check them.
 */
export function pdfBomb({ pages, streamBytes }: PdfBombOptions): Buffer {
  const line = 'BT /F1 12 Tf 72 720 Td (All work and no play makes a dull document.) Tj ET\n';
  const stream = deflateSync(Buffer.from(line.repeat(Math.ceil(streamBytes / line.length)), 'latin1'), { level: 9 });
  const firstPage = 5;
  const kids = Array.from({ length: pages }, (_value, index) => `${firstPage + index} 0 R`).join(' ');
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>', 'latin1'),
    Buffer.from(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`, 'latin1'),
    Buffer.concat([Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'), stream, Buffer.from('\nendstream', 'latin1')]),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>', 'latin1'),
    ...Array.from({ length: pages }, () =>
      Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>', 'latin1'),
    ),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(length);
    const framed = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`, 'latin1'), object, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(framed);
    length += framed.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  const trailer = `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  return Buffer.concat([...parts, Buffer.from(xref + trailer, 'latin1')]);
}

/** Bytes that are no text in any charset, to be served as text/html. */
export function binaryNoise(bytes: number): Buffer {
  return randomBytes(bytes);
}

/**
 * A page of `links` links to distinct pages of its own site, each in a few words of prose in one paragraph, so they
 * stay in the page's content (bare link lists are dropped as navigation) and reach the markdown conversion. Issue
 * #16: link handling quadratic in their number turned 20k links into a crawl with no result. ~63 bytes per link.
 */
export function linkHeavyHtml(links: number): string {
  const entries = Array.from({ length: links }, (_, index) => `Berth ${index}, on the tide: <a href="/page/${index}">berth ${index}</a>.`).join(' ');
  return `<!doctype html><html><head><title>Links</title></head><body><main><h1>Links</h1><p>${entries}</p></main></body></html>`;
}
