import type { ImageReference } from './search-candidate';

export type DocumentSource = 'extract' | 'crawl' | 'import';

/** What extract, crawl and imports hand to the store. */
export interface DocumentInput {
  url: string;
  /** The URL after redirects; defaults to url. */
  finalUrl?: string;
  title?: string;
  description?: string | null;
  markdown?: string;
  text: string;
  /** Any form languageCodeOf understands; guessed from the text when absent. */
  language?: string | null;
  /** Only when the page states one. */
  publishedDate?: Date | string | null;
  fetchedAt?: Date;
  isNews?: boolean;
  isUnsafe?: boolean;
  countryHints?: string[];
  images?: ImageReference[];
  source: DocumentSource;
}

export interface StoredDocument {
  id: string;
  url: string;
  finalUrl: string;
  domain: string;
  title: string;
  description: string | null;
  markdown: string;
  text: string;
  language: string | null;
  publishedDate: Date | null;
  fetchedAt: Date;
  contentHash: string;
  isNews: boolean;
  isUnsafe: boolean;
  countryHints: string[];
  images: ImageReference[];
  source: DocumentSource;
  wordCount: number;
}
