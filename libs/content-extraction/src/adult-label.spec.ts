import { extractHtml } from './index';

const page = (head: string) =>
  `<html><head><title>Page</title>${head}</head><body><article><p>${'Ordinary words of an ordinary page. '.repeat(20)}</p></article></body></html>`;

describe('self-labelled adult content', () => {
  it.each([
    ['<meta name="rating" content="adult">'],
    ['<meta name="RATING" content="RTA-5042-1996-1400-1577-RTA">'],
    ['<meta property="og:restrictions:age" content="18+">'],
    ['<script type="application/ld+json">{"@type":"WebPage","isFamilyFriendly":false}</script>'],
  ])('flags a page labelled %s', (head) => {
    expect(extractHtml(page(head), { baseUrl: 'https://example.com/' }).isUnsafe).toBe(true);
  });

  it.each([
    [''],
    ['<meta name="rating" content="general">'],
    ['<script type="application/ld+json">{"@type":"WebPage","isFamilyFriendly":true}</script>'],
  ])('does not flag a page labelled %s', (head) => {
    expect(extractHtml(page(head), { baseUrl: 'https://example.com/' }).isUnsafe).toBe(false);
  });
});
