import { z } from 'zod';

/**
 * The one page document: what content extraction produces from a fetched page, what the workers hand back in
 * job results and what the document store keeps. The type is derived from this schema (not declared a second
 * time) so a job result is checked against exactly the shape every hop uses.
 */
export const webPageSchema = z.object({
  /** The URL as requested. */
  url: z.string(),
  /** After redirects. */
  finalUrl: z.string(),
  title: z.string(),
  description: z.string().optional(),
  /** With format "text" the markdown conversion is skipped and this holds the plain text. */
  markdown: z.string(),
  text: z.string(),
  /** As the page declares it (a BCP 47 tag or a PDF's Language entry). */
  language: z.string().optional(),
  /** ISO 8601, only when the page states one. */
  publishedDate: z.string().optional(),
  isNews: z.boolean(),
  /** The page labels itself as adult content; safe search drops it. */
  isUnsafe: z.boolean(),
  /** Region subtags of the languages the page declares ("en-GB" → "GB"). */
  countryHints: z.array(z.string()),
  images: z.array(z.object({ url: z.string(), alt: z.string() })),
  favicon: z.string().optional(),
  /** sha256 (hex) of text. */
  contentHash: z.string(),
});
export type WebPage = z.infer<typeof webPageSchema>;
export type WebPageImage = WebPage['images'][number];
