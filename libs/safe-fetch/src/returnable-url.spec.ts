import { isReturnableUrl } from './returnable-url';

describe('isReturnableUrl', () => {
  const closed = { allowCidrs: [] };

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://user:pass@127.0.0.1/',
    'https://user@example.com/',
    'http://[::1]/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://017700000001/',
    'http://127.1/',
    'http://0/',
    'http://[::ffff:127.0.0.1]/',
    'http://localhost/',
    'http://LOCALHOST./admin',
    'http://api.localhost:8080/',
    'http://10.1.2.3/',
    'http://192.168.0.1/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://printer.local/',
    'http://router.home.arpa/',
    'file:///etc/passwd',
    'ftp://example.com/file',
    'gopher://example.com/',
    'javascript:alert(1)',
    'not a url',
  ])('refuses %s', (url) => {
    expect(isReturnableUrl(url, closed)).toBe(false);
  });

  it.each(['https://en.wikipedia.org/wiki/Volcano', 'http://93.184.216.34/page', 'https://[2606:4700:4700::1111]/', 'https://例え.jp/', 'https://notlocalhost.example/'])(
    'returns %s',
    (url) => {
      expect(isReturnableUrl(url, closed)).toBe(true);
    },
  );

  it("applies the policy's allowances as fetches do, credentials and schemes aside", () => {
    const loopback = { allowCidrs: ['127.0.0.0/8', '::1/128'] };
    expect(isReturnableUrl('http://2130706433/', loopback)).toBe(true);
    expect(isReturnableUrl('http://localhost:8080/', loopback)).toBe(true);
    expect(isReturnableUrl('http://10.1.2.3/', loopback)).toBe(false);
    expect(isReturnableUrl('http://user:pass@127.0.0.1/', loopback)).toBe(false);
    expect(isReturnableUrl('file:///etc/passwd', loopback)).toBe(false);
    // A name under localhost is loopback, in whichever family the resolver answers it.
    expect(isReturnableUrl('http://localhost/', { allowCidrs: ['127.0.0.1/32'] })).toBe(true);
    expect(isReturnableUrl('http://localhost/', { allowCidrs: ['10.0.0.0/8'] })).toBe(false);
  });
});
