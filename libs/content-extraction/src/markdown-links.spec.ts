import { markdownLinks, MAX_CONTENT_LINKS } from './markdown-links';

describe('markdownLinks', () => {
  it('reads the absolute http(s) targets of inline links once each, without fragments, in page order', () => {
    const markdown = [
      'See [git-mv(1)](https://docs.example/git-mv.html) and [the index](https://docs.example/git-add.html#_options "Options").',
      'Again [git-mv](https://docs.example/git-mv.html#_description), [mail](mailto:a@b.example), [top](#top).',
      '* [<angle>](<http://other.example/page>)',
    ].join('\n');
    expect(markdownLinks(markdown)).toEqual(['https://docs.example/git-mv.html', 'https://docs.example/git-add.html', 'http://other.example/page']);
  });

  it('does not read images, or a linked image\'s source, as links', () => {
    expect(markdownLinks('![diagram](https://docs.example/a.png) [![badge](https://ci.example/b.svg)](https://ci.example/build)')).toEqual([]);
  });

  it('stops at MAX_CONTENT_LINKS targets', () => {
    const markdown = Array.from({ length: MAX_CONTENT_LINKS + 5 }, (_, index) => `[${index}](https://docs.example/${index}.html)`).join(' ');
    const links = markdownLinks(markdown);
    expect(links).toHaveLength(MAX_CONTENT_LINKS);
    expect(links.at(-1)).toBe(`https://docs.example/${MAX_CONTENT_LINKS - 1}.html`);
  });
});
