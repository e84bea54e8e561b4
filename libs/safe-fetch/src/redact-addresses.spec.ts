import { redactAddresses } from './safe-fetch';

describe('redactAddresses', () => {
  it('replaces IPv4 and IPv6 literals, with their port, and leaves other text alone', () => {
    expect(redactAddresses('connect ECONNREFUSED 10.1.2.3:8080')).toBe('connect ECONNREFUSED the host');
    expect(redactAddresses('connect EHOSTUNREACH fd00::1')).toBe('connect EHOSTUNREACH the host');
    expect(redactAddresses('getaddrinfo ENOTFOUND example.test at 12:30')).toBe('getaddrinfo ENOTFOUND example.test at 12:30');
    expect(redactAddresses('peer [::ffff:127.0.0.1] closed')).toBe('peer the host closed');
  });
});
