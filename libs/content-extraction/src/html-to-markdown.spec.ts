import * as htmlParser from 'node-html-parser';
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

describe('elementToMarkdown on the page\'s own tree', () => {
  afterEach(() => jest.restoreAllMocks());

  const markdownOf = (body: string): string => elementToMarkdown(parseDocument(`<html><body><div id="content">${body}</div></body></html>`).getElementById('content') as Element);

  it('converts the content where it is, without serialising and parsing it again', () => {
    const parse = jest.spyOn(htmlParser, 'parse');
    expect(markdownOf('<h2>Usage</h2><p>Run <code>git add</code> on a <a href="https://git.example/add">path</a>.</p>')).toBe(
      '## Usage\n\nRun `git add` on a [path](https://git.example/add).',
    );
    expect(parse).not.toHaveBeenCalled();
  });

  it('escapes by the text as it reads, not by where the parser cut it at an entity', () => {
    // The parser leaves "See ", "<", "pathspec", ">" ... as separate text nodes; a ">" escaped as a line start
    // would come out as "\>".
    expect(markdownOf('<p>See &lt;pathspec&gt; and a prompt ending in &gt;&gt;</p>')).toBe('See <pathspec> and a prompt ending in >>');
  });

  it('reads attributes decoded once: an encoded ampersand in a link stays an ampersand', () => {
    // Serialised and parsed again, "&amp;section=1" came back as "§ion=1" (decoded twice).
    expect(markdownOf('<p><a href="https://wiki.example/w?action=edit&amp;section=1">edit</a></p>')).toBe('[edit](https://wiki.example/w?action=edit&section=1)');
  });

  it('keeps the alt text and source of an image written in capitals', () => {
    expect(markdownOf('<p><IMG SRC="https://img.example/flag.png" ALT="Flag"> Singapore</p>')).toBe('![Flag](https://img.example/flag.png) Singapore');
  });
});
