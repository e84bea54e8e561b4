import { NodeHtmlMarkdown } from 'node-html-markdown';

const converter = new NodeHtmlMarkdown({
  bulletMarker: '-',
  codeBlockStyle: 'fenced',
  // Readability already kept only content; images appear in the images list, not as markdown noise.
  ignore: ['script', 'style', 'noscript', 'iframe', 'button', 'form'],
  maxConsecutiveNewlines: 2,
});

/** HTML fragment to GitHub-flavoured markdown (ATX headings, fenced code, pipe tables). */
export function htmlToMarkdown(html: string): string {
  return converter.translate(html).trim();
}
