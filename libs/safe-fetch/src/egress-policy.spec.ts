import { egressPolicyFromConfig, isAddressAllowed } from './egress-policy';
import { parsePublicUrl } from './public-url';

describe('isAddressAllowed', () => {
  const closed = { allowCidrs: [] };

  it.each([
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '255.255.255.255',
    '224.0.0.1', '192.0.2.1', '::1', '::', 'fe80::1', 'fd00:ec2::254', 'fc00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1',
    '64:ff9b::7f00:1', '2002:7f00:1::', '2001::1', 'ff02::1', 'not an address',
  ])('refuses %s', (address) => {
    expect(isAddressAllowed(address, closed)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows public %s', (address) => {
    expect(isAddressAllowed(address, closed)).toBe(true);
  });

  it('opens exactly the configured CIDRs', () => {
    const policy = { allowCidrs: ['127.0.0.2/32', 'fd12::/16'] };
    expect(isAddressAllowed('127.0.0.2', policy)).toBe(true);
    expect(isAddressAllowed('127.0.0.1', policy)).toBe(false);
    expect(isAddressAllowed('fd12::5', policy)).toBe(true);
    expect(isAddressAllowed('::1', policy)).toBe(false);
  });
});

describe('egressPolicyFromConfig', () => {
  it('is closed by default and parses a comma-separated list', () => {
    expect(egressPolicyFromConfig({ FETCH_ALLOW_CIDRS: '' })).toEqual({ allowCidrs: [] });
    expect(egressPolicyFromConfig({ FETCH_ALLOW_CIDRS: ' 127.0.0.0/8, ::1/128 ,' })).toEqual({ allowCidrs: ['127.0.0.0/8', '::1/128'] });
  });

  it('refuses a malformed entry at start-up', () => {
    expect(() => egressPolicyFromConfig({ FETCH_ALLOW_CIDRS: 'localhost' })).toThrow(/FETCH_ALLOW_CIDRS/);
  });
});

describe('parsePublicUrl', () => {
  it.each(['javascript:alert(1)', 'file:///etc/passwd', 'gopher://example.com/', 'http://user:pass@example.com/', 'http://', '//example.com'])(
    'rejects %s',
    (raw) => {
      expect(() => parsePublicUrl(raw)).toThrow(expect.objectContaining({ code: 'invalid_url' }));
    },
  );

  it('leaves host normalisation to the WHATWG parser', () => {
    expect(parsePublicUrl('http://0x7f.1:8080/').hostname).toBe('127.0.0.1');
    expect(parsePublicUrl('http://2130706433/').hostname).toBe('127.0.0.1');
  });
});
