/** A page's content after extraction, whether it came from HTTP, the browser or the document store. */
export interface ExtractedPage {
  finalUrl: string;
  title: string;
  markdown: string;
  text: string;
  description?: string;
  language?: string;
  publishedDate?: string;
  images: { url: string; alt?: string }[];
  favicon: string;
  /** Metadata the search index filters on; unknown (false/empty) for PDFs, plain text and cached copies. */
  isNews?: boolean;
  isUnsafe?: boolean;
  countryHints?: string[];
}
