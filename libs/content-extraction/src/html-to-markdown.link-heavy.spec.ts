import { elementToMarkdown } from './html-to-markdown';
import { parseDocument } from './parse-document';

/** The separator before link `index`: mostly a space, sometimes a visible one, as link lists have. */
const separatorBefore = (index: number): string => (index % 7 === 0 ? ' | ' : ' ');

/** A content element holding a heading and `links` links in one run of inline content (issue #16: a hostile page). */
function linkHeavyContent(links: number, wrapper: 'none' | 'paragraph'): Element {
  const anchors = Array.from({ length: links }, (_, index) => `${index > 0 ? separatorBefore(index) : ''}<a href="/page/${index}">link ${index}</a>`).join('');
  const body = wrapper === 'paragraph' ? `<p>${anchors}</p>` : anchors;
  return parseDocument(`<html><body><div id="content"><h1>Links</h1>${body}</div></body></html>`).getElementById('content') as Element;
}

function conversionMilliseconds(element: Element): number {
  const start = process.hrtime.bigint();
  elementToMarkdown(element);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

describe('elementToMarkdown on pages made of links', () => {
  it('converts 100k links in about ten times the time of 10k, not a hundred', () => {
    const small = linkHeavyContent(10_000, 'paragraph');
    const large = linkHeavyContent(100_000, 'paragraph');
    conversionMilliseconds(small);
    const smallMilliseconds = Math.min(conversionMilliseconds(small), conversionMilliseconds(small));
    const largeMilliseconds = conversionMilliseconds(large);
    // Linear is about 10x; the quadratic conversion this replaces was about 100x (11.8 s at 10k links).
    expect(largeMilliseconds / smallMilliseconds).toBeLessThan(30);
  }, 60_000);

  it.each(['none', 'paragraph'] as const)('writes every link once, in order, with the separators of the page (%s)', (wrapper) => {
    const links = 5_000;
    const expected = `# Links\n\n${Array.from({ length: links }, (_, index) => `${index > 0 ? separatorBefore(index) : ''}[link ${index}](/page/${index})`).join('')}`;
    expect(elementToMarkdown(linkHeavyContent(links, wrapper))).toBe(expected);
  });
});
