import { squeezedLength } from './markup-words';

const squeezed = (text: string): string => text.replace(/[\s|]+/g, '');

describe('squeezedLength', () => {
  it('is the length of the text without whitespace and bars, for every UTF-16 code unit', () => {
    const differing: string[] = [];
    for (let code = 0; code <= 0xffff; code += 1) {
      const text = `a${String.fromCharCode(code)}b`;
      if (squeezedLength(text) !== squeezed(text).length) differing.push(code.toString(16));
    }
    expect(differing).toEqual([]);
  });

  it('counts a page of mixed text as the regular expression does', () => {
    const text = ' Name | Value \n\t git-config(1) \u00a0 user.email\u2003| 👍 \r\n';
    expect(squeezedLength(text)).toBe(squeezed(text).length);
    expect(squeezedLength('')).toBe(0);
  });
});
