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
    expect(spacedChunks).toEqual(['Put the < script src="app.js">< /script> tag last; a < /style> ends a block.']);
  });

  it('sends no spaced copy of a chunk that needs none', () => {
    const [, , spaced] = chunkRowsOf('A <b>bold</b> claim about <scripting> and <styles>.');
    expect(spaced).toEqual([null]);
  });
});
