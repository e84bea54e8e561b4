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

export interface PdfLimits {
  /** Pages read at most; later pages are left out. Default 200. */
  maxPages?: number;
  /** Characters of text kept at most; reading stops once they are reached. Default 2 000 000. */
  maxChars?: number;
}

export const defaultPdfLimits: Required<PdfLimits> = { maxPages: 200, maxChars: 2_000_000 };

/**
 * Text of a PDF from its text layer (no OCR), one paragraph per text line break run, pages separated. `url` is
 * where the PDF was fetched from (after redirects), `requestedUrl` the URL asked for. A PDF of thousands of pages
 * that each expand one huge stream (a PDF bomb) is read only up to `limits`; the caller's deadline and heap cap
 * (the parsing thread's) bound what a single page can cost.
 */
export async function extractPdf(data: Uint8Array, url: string, requestedUrl: string = url, limits: PdfLimits = {}): Promise<WebPage> {
  const { maxPages, maxChars } = { ...defaultPdfLimits, ...limits };
  const { getDocument } = loadPdfJs();
  // pdf.js takes ownership of (and detaches) the buffer it is given, so it gets a copy.
  const document = await getDocument({ data: new Uint8Array(data), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    const pages: string[] = [];
    let characters = 0;
    const lastPage = Math.min(document.numPages, maxPages);
    for (let number = 1; number <= lastPage && characters < maxChars; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items as TextItem[]) {
        if (text.length >= maxChars - characters) break;
        if (typeof item.str !== 'string') continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
      }
      const pageText = text.replace(/[ \t]+/g, ' ').replace(/ *\n */g, '\n').trim().slice(0, maxChars - characters);
      characters += pageText.length;
      pages.push(pageText);
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
