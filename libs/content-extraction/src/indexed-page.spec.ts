import { tokenize } from '@sift/ranking';
import { chunkRowsOf, indexedPageOf } from './indexed-page';

describe('a page as the index reads it', () => {
  it('leaves "<style" and "<script" as words, not elements the text search parser would skip', () => {
    const page = indexedPageOf({
      title: 'Loading a <script> late',
      markdown: '# Inline <STYLE> blocks\n\nPut the <script src="app.js"></script> tag last; a </style> ends a block.',
      text: 'Put the <script src="app.js"></script> tag last; a </style> ends a block.',
    });
    const [title, , headings] = page.spaced;
    expect(title).toBe('Loading a < script> late');
    expect(headings).toBe('Inline < STYLE> blocks');
    const [chunks, , spacedChunks] = page.chunks;
    expect(chunks).toEqual(['Put the <script src="app.js"></script> tag last; a </style> ends a block.']);
    // The file name is hyphenated too, so "app" and "js" are words of the chunk (hyphenateDottedNames).
    expect(spacedChunks).toEqual(['Put the < script src="app-js">< /script> tag last; a < /style> ends a block.']);
  });

  it('sends no spaced copy of a chunk that needs none', () => {
    const [, , spaced] = chunkRowsOf('A <b>bold</b> claim about <scripting> and <styles>.');
    expect(spaced).toEqual([null]);
  });

  it('counts the words of the title, the description and the text, the text once, in its chunks', () => {
    const paragraph = 'Rebasing replays each commit of the branch on top of another base, one commit at a time. ';
    const chinese = '我们在这里讨论如何在不改写历史的情况下撤销一个已经推送的提交。';
    const text = `${paragraph.repeat(40)}\n\n${chinese.repeat(10)}`;
    const page = indexedPageOf({ title: 'git-rebase(1)', description: 'Reapply commits on top of another base tip', markdown: text, text });
    expect(page.chunks[0].length).toBeGreaterThan(3);
    expect(page.wordCount).toBe(tokenize('git-rebase(1)').length + tokenize('Reapply commits on top of another base tip').length + tokenize(text).length);
  });
});
