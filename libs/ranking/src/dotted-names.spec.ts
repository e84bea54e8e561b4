import { hyphenateDottedNames } from './dotted-names';
import { searchableText } from './searchable-text';

describe('hyphenateDottedNames', () => {
  it('hyphenates configuration keys, module paths and file names', () => {
    expect(hyphenateDottedNames('Set user.email and core.autocrlf.')).toBe('Set user-email and core-autocrlf.');
    expect(hyphenateDottedNames('call os.path.join(a, b) from fs.readFile or index.html')).toBe('call os-path-join(a, b) from fs-readFile or index-html');
    expect(hyphenateDottedNames('Node.js and __init__.py')).toBe('Node-js and __init__-py');
  });

  it('leaves URLs, e-mail addresses, abbreviations, versions and sentence ends alone', () => {
    for (const text of [
      'see https://git-scm.com/docs/git-config.html today',
      'mail jane.doe@example.org now',
      'e.g. the U.S. office',
      'version v1.2.3 or 3.14',
      'It ends here. Next sentence.',
      'the git-config.txt file',
      'www.example.com/path',
    ]) {
      expect(hyphenateDottedNames(text)).toBe(text);
    }
  });

  it('returns text without a dotted name as it is', () => {
    const text = 'plain words, no names';
    expect(hyphenateDottedNames(text)).toBe(text);
  });
});

describe('searchableText', () => {
  it('hyphenates dotted names and segments Chinese in one text', () => {
    expect(searchableText('设置user.name配置')).toBe(' 设置 user-name 配置 ');
  });
});
