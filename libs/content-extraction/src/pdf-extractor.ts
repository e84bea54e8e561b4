import { countryHintsOf } from './country-hints';
import { conventionalFavicon, WebPage, webPageOf } from './web-page';

interface TextItem {
  str: string;
  hasEOL?: boolean;
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let pdfjs: PdfJs | undefined;

// pdf.js is ESM-only; Node 20.19+ loads it through require(esm). Its worker module is registered on globalThis
// so pdf.js runs it in-process instead of importing a worker file at run time.
function loadPdfJs(): PdfJs {
  if (!pdfjs) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = require('pdfjs-dist/legacy/build/pdf.worker.mjs');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    pdfjs = require('pdfjs-dist/legacy/build/pdf.mjs') as PdfJs;
  }
  return pdfjs;
}

/**
 * Text of a PDF from its text layer (no OCR), one paragraph per text line break run, pages separated. `url` is
 * where the PDF was fetched from (after redirects), `requestedUrl` the URL asked for.
 */
export async function extractPdf(data: Uint8Array, url: string, requestedUrl: string = url): Promise<WebPage> {
  const { getDocument } = loadPdfJs();
  // pdf.js takes ownership of (and detaches) the buffer it is given, so it gets a copy.
  const document = await getDocument({ data: new Uint8Array(data), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items as TextItem[]) {
        if (typeof item.str !== 'string') continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
      }
      pages.push(text.replace(/[ \t]+/g, ' ').replace(/ *\n */g, '\n').trim());
      page.cleanup();
    }
    const text = pages.filter((page) => page.length > 0).join('\n\n');
    const metadata = await document.getMetadata().catch(() => undefined);
    const info = (metadata?.info ?? {}) as { Title?: unknown; Language?: unknown };
    const title = typeof info.Title === 'string' && info.Title.trim() ? info.Title.trim() : decodeURIComponent(new URL(url).pathname.split('/').pop() || url);
    const language = typeof info.Language === 'string' ? info.Language : undefined;
    return webPageOf({
      url: requestedUrl,
      finalUrl: url,
      title,
      markdown: text,
      text,
      language,
      countryHints: countryHintsOf(language ? [language] : []),
      favicon: conventionalFavicon(url),
    });
  } finally {
    await document.destroy();
  }
}
