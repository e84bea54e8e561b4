import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractHtml } from './html-extractor';
import { markdownHeadings } from './markdown-headings';

describe('markdownHeadings', () => {
  it('reads the h1–h3 headings of an extracted page, in order, as plain text', () => {
    const html = `<html><head><title>Guide</title></head><body><article>
      <h1>Undoing changes</h1><p>${'Some words about undoing work in a repository. '.repeat(8)}</p>
      <h2>Reverting a <a href="/commit">commit</a></h2><p>${'How a revert records the inverse change. '.repeat(8)}</p>
      <h3><code>--soft</code> resets</h3><p>${'Keeping the index as it was. '.repeat(8)}</p>
      <h4>Too fine a detail</h4><p>${'A footnote level heading. '.repeat(8)}</p>
    </article></body></html>`;
    const page = extractHtml(html, { baseUrl: 'https://docs.example/guide' });
    expect(markdownHeadings(page.markdown)).toEqual(['Undoing changes', 'Reverting a commit', '--soft resets']);
  });

  it('reads the sections of a real manual page', () => {
    const html = readFileSync(join(__dirname, 'fixtures', 'sectioned-manual.html'), 'utf8');
    expect(markdownHeadings(extractHtml(html, { baseUrl: 'https://docs.example/manual' }).markdown)).toEqual([
      'tool-merge(1) Manual Page',
      'NAME',
      'SYNOPSIS',
      'DESCRIPTION',
      'OPTIONS',
      'NOTES',
    ]);
  });

  it('skips comment lines inside fenced code and deeper headings', () => {
    const markdown = ['# Install', '', '```sh', '# add the repository', 'apt-get install sift', '```', '', '#### Minor', '~~~', '## not a heading', '~~~', '## Configure ##'].join('\n');
    expect(markdownHeadings(markdown)).toEqual(['Install', 'Configure']);
  });

  it('finds none in plain text', () => {
    expect(markdownHeadings('An abstract of one paragraph.\n\nAnother paragraph with #hashtag.')).toEqual([]);
  });
});
