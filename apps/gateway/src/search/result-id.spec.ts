import { searchResultId } from './result-id';

describe('searchResultId', () => {
  const requestId = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

  it('is the RFC 4122 version-5 UUID of the canonical URL in the request namespace', () => {
    // Python: uuid.uuid5(uuid.NAMESPACE_DNS, 'example.com/page') (NAMESPACE_DNS is the requestId above).
    expect(searchResultId(requestId, 'https://www.example.com/page/')).toBe('be62cae8-c226-500b-88f1-68c350994950');
  });

  it('gives copies of one page the same id and other pages or requests other ids', () => {
    const id = searchResultId(requestId, 'https://example.com/page');
    expect(searchResultId(requestId, 'http://www.example.com/page/')).toBe(id);
    expect(searchResultId(requestId, 'https://example.com/other')).not.toBe(id);
    expect(searchResultId('00000000-0000-4000-8000-000000000000', 'https://example.com/page')).not.toBe(id);
  });
});
