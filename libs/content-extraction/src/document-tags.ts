import { findElements, firstElementChild, MarkupDocument, MarkupElement, textOf } from './markup-tree';
import { resolveUrl } from './parse-document';

const COLLECTED_TAGS = new Set(['meta', 'link', 'base', 'title', 'h1', 'time']);

/** An element's attributes by name, names in their source case (as linkedom's getAttribute sees them). */
export type Attributes = Record<string, string>;

/**
 * What metadata, favicon, base URL and link extraction read from the whole page, collected in one walk of its
 * markup before boilerplate removal: the `<meta>`, `<link>` and `<base>` elements, the first `<title>`, `<h1>` and
 * `<time datetime>`, and the root element's language. Asking the document with a selector query per lookup
 * walked the whole tree each time (absent tags are the common case).
 */
export class DocumentTags {
  readonly metas: Attributes[] = [];
  readonly links: Attributes[] = [];
  /** The `lang` of the page's root element. */
  readonly language: string | undefined;
  private readonly bases: Attributes[] = [];
  private readonly firsts = new Map<string, MarkupElement>();
  /** The first meta element naming each key in its property, name or itemprop attribute, in document order. */
  private readonly metaByKey = new Map<string, Attributes>();

  constructor(document: MarkupDocument) {
    this.language = firstElementChild(document)?.attribs['lang'];
    for (const element of findElements(document, (candidate) => COLLECTED_TAGS.has(candidate.name))) {
      const attributes = element.attribs;
      if (element.name === 'meta') this.addMeta(attributes);
      else if (element.name === 'link') this.links.push(attributes);
      else if (element.name === 'base') this.bases.push(attributes);
      else if (!this.firsts.has(element.name) && (element.name !== 'time' || attributes['datetime'] !== undefined)) this.firsts.set(element.name, element);
    }
  }

  private addMeta(attributes: Attributes): void {
    this.metas.push(attributes);
    for (const attribute of ['property', 'name', 'itemprop']) {
      const key = attributes[attribute];
      if (key !== undefined && !this.metaByKey.has(key)) this.metaByKey.set(key, attributes);
    }
  }

  /** The trimmed content of the first meta element naming the first key that has one with content. */
  meta(...keys: string[]): string | undefined {
    for (const key of keys) {
      const content = this.metaByKey.get(key)?.['content']?.trim();
      if (content) return content;
    }
    return undefined;
  }

  /** The text of the first `<title>` or `<h1>`. */
  firstText(tag: 'title' | 'h1'): string | undefined {
    const element = this.firsts.get(tag);
    return element && textOf(element);
  }

  /** The `datetime` of the first `<time datetime>`. */
  get firstDatetime(): string | undefined {
    return this.firsts.get('time')?.attribs['datetime'];
  }

  /** The first `<link>` whose space-separated rel holds one of `rels` (case-insensitive) and that has an href. */
  link(...rels: string[]): Attributes | undefined {
    return this.links.find((link) => link['href'] !== undefined && relsOf(link).some((rel) => rels.includes(rel)));
  }

  /** The `<base href>` of the page resolved against its address, or the address itself. */
  baseUrl(pageUrl: string): { baseUrl: string; baseHref?: string } {
    const baseHref = this.bases.find((base) => base['href'] !== undefined)?.['href'];
    const resolved = resolveUrl(baseHref, pageUrl);
    return { baseUrl: resolved ?? pageUrl, baseHref: resolved };
  }
}

export function relsOf(link: Attributes): string[] {
  return (link['rel'] ?? '').toLowerCase().split(/\s+/);
}
