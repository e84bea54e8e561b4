import type { ResearchSource } from '@sift/queue-contracts';
import type { ResearchRequest } from './research-pipeline';

export type CitationFormat = ResearchRequest['citationFormat'];

/** The site a page is on, as a citation names it: its host without "www.". */
function siteOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/** A page's title on one line: a title cannot break out of its citation into a heading or a paragraph of the report. */
function titleOf(source: ResearchSource): string {
  return source.title.replace(/\s+/g, ' ').trim().replace(/[.\s]+$/, '') || siteOf(source.url);
}

/**
 * How a sentence cites source `number` (1-based, in citation order). Pages carry no reliable author or date,
 * so the author-date styles use the title and "n.d." rather than inventing either.
 */
export function inlineCitation(format: CitationFormat, number: number, source: ResearchSource): string {
  switch (format) {
    case 'numbered':
      return `[${number}]`;
    case 'apa':
      return `(${titleOf(source)}, n.d.)`;
    case 'mla':
    case 'chicago':
      return `("${titleOf(source)}")`;
  }
}

/** The source's entry in the report's source list, in the style's order of title, site and URL. */
export function sourceListEntry(format: CitationFormat, number: number, source: ResearchSource): string {
  const title = titleOf(source);
  const site = siteOf(source.url);
  switch (format) {
    case 'numbered':
      return `[${number}] ${title}. ${source.url}`;
    case 'apa':
      return `${title}. (n.d.). ${site}. ${source.url}`;
    case 'mla':
      return `"${title}." ${site}, ${source.url}.`;
    case 'chicago':
      return `"${title}." ${site}. ${source.url}.`;
  }
}

/** The "Sources" section closing a report. */
export function sourceList(format: CitationFormat, sources: ResearchSource[]): string {
  return `## Sources\n\n${sources.map((source, position) => sourceListEntry(format, position + 1, source)).join('\n')}`;
}

/** Numbers sources in the order a report first cites them: source n is the n-th one cited. */
export class CitationOrder {
  readonly sources: ResearchSource[] = [];
  private readonly numbers = new Map<string, number>();

  numberOf(source: ResearchSource): number {
    let number = this.numbers.get(source.url);
    if (number === undefined) {
      this.sources.push(source);
      number = this.sources.length;
      this.numbers.set(source.url, number);
    }
    return number;
  }

  cite(format: CitationFormat, source: ResearchSource): string {
    return inlineCitation(format, this.numberOf(source), source);
  }
}
