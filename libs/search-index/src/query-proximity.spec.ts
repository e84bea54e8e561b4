import { proximitySpans as proximitySpansOf } from './query-proximity';

const functionWords = new Set(['what', 'is', 'and', 'are', 'the', 'of', 'in', 'a', 'on', 'who', 'this', 'for']);
const isContentWord = (word: string) => !functionWords.has(word.toLowerCase());
const proximitySpans = (text: string, isContent: (word: string) => boolean) => proximitySpansOf(text, isContent).map((span) => span.span);

describe('proximitySpans', () => {
  it('pairs each content word with the next, keeping the function words between them', () => {
    expect(proximitySpans('what are the effects of the boundary layer on heat transfer', isContentWord)).toEqual([
      'effects of the boundary',
      'boundary layer',
      'layer on heat',
      'heat transfer',
    ]);
    expect(proximitySpans('who wrote this line of code', isContentWord)).toEqual(['wrote this line', 'line of code']);
  });

  it('does not pair words with more than two function words between them, and gives none for one content word', () => {
    expect(proximitySpans('pressure in a the of wing', isContentWord)).toEqual([]);
    expect(proximitySpans('what is the pressure', isContentWord)).toEqual([]);
  });

  it('names the two content words of each span', () => {
    expect(proximitySpansOf('line of code', isContentWord)).toEqual([{ span: 'line of code', words: ['line', 'code'] }]);
  });

  it('lists a repeated pair once', () => {
    expect(proximitySpans('shock wave and shock wave', isContentWord)).toEqual(['shock wave', 'wave and shock']);
  });
});
