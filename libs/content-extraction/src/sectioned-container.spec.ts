import { readFileSync } from 'node:fs';
import path from 'node:path';
import { extractHtml } from './html-extractor';

// An AsciiDoc manual page: a title block, then sibling "sect1" sections, the longest of which (OPTIONS) is where
// Readability's paragraph scores concentrate.
const manual = readFileSync(path.join(__dirname, 'fixtures', 'sectioned-manual.html'), 'utf8');

describe('extractHtml on a sectioned manual page', () => {
  const result = extractHtml(manual, { baseUrl: 'https://docs.example/tool-merge.html' });

  it('keeps every section, not only the longest one', () => {
    const order = ['SYNOPSIS', 'tool merge [-n]', 'DESCRIPTION', 'Incorporates changes', 'OPTIONS', '--option-8', 'NOTES', 'tool-log(1)'];
    const positions = order.map((fragment) => result.markdown.indexOf(fragment));
    expect(positions).not.toContain(-1);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('keeps the title block before the first section', () => {
    expect(result.markdown.startsWith('# tool-merge(1) Manual Page')).toBe(true);
    expect(result.text).toContain('tool-merge - Join two or more development histories together');
  });

  it('still drops the footer', () => {
    expect(result.text).not.toContain('Last updated');
  });
});

describe('extractHtml on a sectioned page with other text beside the sections', () => {
  // Enough text outside the sections that they are not taken as the page outright: Readability runs, picks the
  // longest section, and its choice is widened to the run of sections.
  const note = `<div class="release-note"><p>${'This page describes the current release of the tool, and older releases differ. '.repeat(14)}</p></div>`;
  const result = extractHtml(manual.replace('<div id="content">', `${note}<div id="content">`), { baseUrl: 'https://docs.example/tool-merge.html' });

  it('keeps every section in order', () => {
    const positions = ['SYNOPSIS', 'DESCRIPTION', 'OPTIONS', '--option-8', 'NOTES'].map((fragment) => result.markdown.indexOf(fragment));
    expect(positions).not.toContain(-1);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });
});
