import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';

// jsdom reports every stylesheet it cannot parse; the peer's noise is not part of the measurement.
const silentConsole = new VirtualConsole();

/** The peer: Readability.js on jsdom as its README shows it, text taken from `textContent`. */
export function extractWithReadabilityOnJsdom(html: string, url: string): string {
  const dom = new JSDOM(html, { url, virtualConsole: silentConsole });
  try {
    return new Readability(dom.window.document).parse()?.textContent ?? '';
  } finally {
    dom.window.close();
  }
}
