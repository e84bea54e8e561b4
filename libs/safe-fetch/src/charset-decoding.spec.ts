import iconv from 'iconv-lite';
import { decodeBody } from './charset-decoding';

describe('decodeBody', () => {
  it('prefers a BOM over the declared charset', () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>ü</p>')]);
    expect(decodeBody(body, 'html', 'iso-8859-1')).toEqual({ charset: 'utf-8', text: '<p>ü</p>' });
  });

  it('uses the Content-Type charset before <meta>', () => {
    const body = iconv.encode('<meta charset="utf-8"><p>é</p>', 'windows-1252');
    expect(decodeBody(body, 'html', 'windows-1252').text).toContain('<p>é</p>');
  });

  it('falls back to windows-1252 for undeclared bytes that are not UTF-8', () => {
    expect(decodeBody(iconv.encode('café', 'windows-1252'), 'text', undefined)).toEqual({ charset: 'windows-1252', text: 'café' });
  });

  it('decodes JSON as UTF-8 and PDFs not at all', () => {
    expect(decodeBody(Buffer.from('{"a":"ß"}'), 'json', undefined).text).toBe('{"a":"ß"}');
    expect(decodeBody(Buffer.from('%PDF-1.4'), 'pdf', undefined)).toEqual({ charset: '', text: '' });
  });
});
