import { elementToMarkdown } from './html-to-markdown';
import { parseDocument } from './parse-document';

describe('elementToMarkdown on content larger than one conversion piece', () => {
  const items = Array.from({ length: 400 }, (_, index) => `<li>Step ${index + 1}: pour &lt;water&gt; slowly over the grounds, in circles from the centre.</li>`);
  const sections = Array.from({ length: 60 }, (_, index) => `<section><h2>Part ${index + 1}</h2><p>Paragraph of part ${index + 1} with <a href="https://a.example/${index}">a link</a>.</p></section>`);
  const document = parseDocument(`<html><body><div id="content"><h1>Guide</h1>${sections.join('')}<ul>${items.join('')}</ul><ol>${items.slice(0, 300).join('')}</ol></div></body></html>`);
  const markdown = elementToMarkdown(document.getElementById('content') as Element);

  it('converts every block once, in order, with blank lines between the pieces', () => {
    expect(markdown.startsWith('# Guide\n\n## Part 1\n\nParagraph of part 1 with [a link](https://a.example/0).')).toBe(true);
    expect(markdown.match(/^## Part \d+$/gm)).toHaveLength(60);
    expect(markdown).toContain('## Part 60\n\nParagraph of part 60');
  });

  it('keeps every item of a long list split across pieces, with its escaped text', () => {
    expect(markdown.match(/^- Step \d+: pour <water> slowly/gm)).toHaveLength(400);
    expect(markdown).toContain('- Step 400: pour <water> slowly');
  });

  it('keeps a long ordered list whole, so its numbering runs on', () => {
    const numbers = Array.from(markdown.matchAll(/^(\d+)\. Step (\d+): pour/gm), (match) => [Number(match[1]), Number(match[2])]);
    expect(numbers).toHaveLength(300);
    for (const [number, step] of numbers) expect(number).toBe(step);
  });
});
