import { summaryLineOf } from './summary-line';

describe('summaryLineOf', () => {
  it("takes the first paragraph of sentence length from a page's opening", () => {
    const manual = 'git-mv(1) Manual Page\n\nNAME\n\ngit-mv - Move or rename a file, a directory, or a symlink\n\nSYNOPSIS\n\ngit mv [<options>] <source>... <destination>';
    expect(summaryLineOf(manual, ['git-mv(1) Manual Page', 'NAME', 'SYNOPSIS'])).toBe('git-mv - Move or rename a file, a directory, or a symlink');
  });

  it("takes a manual page's short NAME line, not the headings around it", () => {
    const manual = 'git-log(1) Manual Page\n\nNAME\n\ngit-log - Show commit logs\n\nSYNOPSIS\n\ngit log [<options>] [<revision-range>]';
    expect(summaryLineOf(manual, ['git-log(1) Manual Page', 'NAME', 'SYNOPSIS'])).toBe('git-log - Show commit logs');
    expect(summaryLineOf('Getting started with the new release\n\nSome text.', ['Getting started with the new release'])).toBeUndefined();
  });

  it('gives none for a single paragraph, or when the opening has only headings and long paragraphs', () => {
    expect(summaryLineOf('An abstract of one paragraph that is the whole text of the document, nothing else.')).toBeUndefined();
    expect(summaryLineOf(`Title\n\n${'A very long opening paragraph with many words. '.repeat(10)}\n\nShort`)).toBeUndefined();
  });
});
