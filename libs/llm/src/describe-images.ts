import type { LlmClient } from './llm-client';
import type { GenerationMode } from './source-chunk';

/** What is known about an image without looking at it. */
export interface ImageContext {
  url: string;
  alt?: string;
  caption?: string;
  pageTitle?: string;
}

export interface ImageDescription {
  url: string;
  description: string;
}

export interface ImageDescriptions {
  descriptions: ImageDescription[];
  mode: GenerationMode;
}

export interface DescribeOptions {
  client?: LlmClient;
  deadlineMs?: number;
}

/** The description without a model: the image's alt text and caption, else the page it is on. */
export function describeFromText(image: ImageContext): string {
  const parts = [image.alt?.trim(), image.caption?.trim()].filter((part): part is string => Boolean(part));
  const unique = parts.filter((part, index) => parts.findIndex((other) => other.toLowerCase() === part.toLowerCase()) === index);
  if (unique.length > 0) return unique.join(' — ');
  return image.pageTitle ? `Image from “${image.pageTitle.trim()}”` : '';
}

function parseDescriptions(reply: string, count: number): (string | undefined)[] {
  const start = reply.indexOf('[');
  const end = reply.lastIndexOf(']');
  if (start < 0 || end <= start) return [];
  try {
    const parsed = JSON.parse(reply.slice(start, end + 1)) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.slice(0, count).map((item) => (typeof item === 'string' && item.trim() ? item.trim() : undefined));
  } catch {
    return [];
  }
}

/**
 * include_image_descriptions: one sentence per image, related to the query. A configured model writes them
 * from alt text, captions and page titles (text-only models cannot see pixels); images it leaves out, and
 * every image when no model is configured or it fails, are described from their alt text and captions.
 */
export async function describeImages(images: ImageContext[], query: string, options: DescribeOptions = {}): Promise<ImageDescriptions> {
  const fromText = (): ImageDescriptions => ({
    descriptions: images.map((image) => ({ url: image.url, description: describeFromText(image) })),
    mode: 'extractive',
  });
  if (!options.client || images.length === 0) return fromText();
  const listing = images
    .map((image, index) => `${index + 1}. alt: ${image.alt ?? ''} | caption: ${image.caption ?? ''} | page: ${image.pageTitle ?? ''}`)
    .join('\n');
  let reply: string;
  try {
    reply = await options.client.complete(
      [
        {
          role: 'system',
          content:
            'You write one short, factual sentence describing each image, using only its alt text, caption and page title, ' +
            'relevant to the search query. Reply with a JSON array of strings, one per image, in order, and nothing else.',
        },
        { role: 'user', content: `Search query: ${query}\n\nImages:\n${listing}` },
      ],
      { deadlineMs: options.deadlineMs, maxTokens: 60 * images.length },
    );
  } catch {
    return fromText();
  }
  const written = parseDescriptions(reply, images.length);
  if (written.every((description) => description === undefined)) return fromText();
  return {
    descriptions: images.map((image, index) => ({ url: image.url, description: written[index] ?? describeFromText(image) })),
    mode: 'llm',
  };
}
