/** An ATX heading line of the levels a page's outline is read from (h1–h3); deeper ones label small details. */
const HEADING_LINE = /^ {0,3}(#{1,3})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/;

/** A heading's words without markdown syntax: link targets, emphasis and code marks. */
function plainHeading(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_\\]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The h1–h3 headings of a page's markdown (as extraction writes it: ATX headings, fenced code), in page order,
 * as plain text: what the page says its sections are about, which the local index weighs as a field of its own.
 * Lines inside fenced code are code, not headings (a shell comment starts with "#").
 */
export function markdownHeadings(markdown: string): string[] {
  const headings: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const fenceMatch = FENCE_LINE.exec(line);
    if (fenceMatch) {
      if (fence === null) fence = fenceMatch[1];
      else if (fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const heading = HEADING_LINE.exec(line);
    if (!heading) continue;
    const text = plainHeading(heading[2]);
    if (text) headings.push(text);
  }
  return headings;
}
