import { extractPdf } from './pdf-extractor';

/**
 * A minimal valid PDF with two lines of text, byte offsets computed so the xref table is exact. With `pages` > 1 every
 * page shows the same content stream, the shape of a PDF bomb.
 */
function buildPdf(lines: string[], title: string, pages = 1): Uint8Array {
  const stream = `BT /F1 18 Tf 72 720 Td ${lines.map((line, index) => `${index ? '0 -24 Td ' : ''}(${line}) Tj`).join(' ')} ET`;
  const pageObjects = ['3 0 R', ...Array.from({ length: pages - 1 }, (_value, index) => `${7 + index} 0 R`)].join(' ');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageObjects}] /Count ${pages} >>`,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Title (${title}) >>`,
    ...Array.from({ length: pages - 1 }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>'),
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

describe('extractPdf', () => {
  it('reads the text layer and the document title', async () => {
    const pdf = buildPdf(['Quarterly report', 'Revenue grew by twelve percent.'], 'Q3 Report');
    const result = await extractPdf(pdf, 'https://files.example/reports/q3.pdf');
    expect(result.title).toBe('Q3 Report');
    expect(result.text).toContain('Quarterly report');
    expect(result.text).toContain('Revenue grew by twelve percent.');
    expect(result.text.indexOf('Quarterly')).toBeLessThan(result.text.indexOf('Revenue'));
    expect(result.markdown).toBe(result.text);
    expect(result).toMatchObject({ url: 'https://files.example/reports/q3.pdf', finalUrl: 'https://files.example/reports/q3.pdf', isNews: false, isUnsafe: false, images: [] });
    expect(result.favicon).toBe('https://files.example/favicon.ico');
  });

  it('rejects bytes that are not a PDF', async () => {
    await expect(extractPdf(new TextEncoder().encode('<html>not a pdf</html>'), 'https://files.example/x.pdf')).rejects.toThrow();
  });

  it('reads no more than its page cap of a PDF bomb', async () => {
    const sentence = 'All work and no play makes a dull document.';
    const bomb = buildPdf(Array.from({ length: 40 }, () => sentence), 'Bomb', 400);
    const startedAt = performance.now();
    const result = await extractPdf(bomb, 'https://files.example/bomb.pdf', undefined, { maxPages: 3 });
    expect(performance.now() - startedAt).toBeLessThan(5_000);
    const pagesRead = result.text.split('\n\n');
    expect(pagesRead).toHaveLength(3);
    expect(pagesRead.every((page) => page.startsWith(sentence))).toBe(true);
  });

  it('stops reading at its character cap', async () => {
    const bomb = buildPdf(Array.from({ length: 40 }, () => 'All work and no play makes a dull document.'), 'Bomb', 50);
    const result = await extractPdf(bomb, 'https://files.example/bomb.pdf', undefined, { maxChars: 1_000 });
    expect(result.text.replace(/\n/g, '').length).toBeLessThanOrEqual(1_000);
    expect(result.text.length).toBeGreaterThan(500);
  });
});
