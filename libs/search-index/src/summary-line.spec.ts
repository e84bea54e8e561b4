import { summaryLineOf } from './summary-line';

describe('summaryLineOf', () => {
  it("takes the first paragraph of sentence length from a page's opening", () => {
    const manual = 'git-mv(1) Manual Page\n\nNAME\n\ngit-mv - Move or rename a file, a directory, or a symlink\n\nSYNOPSIS\n\ngit mv [<options>] <source>... <destination>';
    expect(summaryLineOf(manual)).toBe('git-mv - Move or rename a file, a directory, or a symlink');
  });

  it('gives none for a single paragraph, or when the opening has only headings and long paragraphs', () => {
    expect(summaryLineOf('An abstract of one paragraph that is the whole text of the document, nothing else.')).toBeUndefined();
    expect(summaryLineOf(`Title\n\n${'A very long opening paragraph with many words. '.repeat(10)}\n\nShort`)).toBeUndefined();
  });
});
