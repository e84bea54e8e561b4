import { FetchError } from './fetch-error';

/**
 * Syntax checks only (the WHATWG parser decides what the host is): http or https, no credentials.
 * Whether the host may be reached is decided at connect time.
 */
export function parsePublicUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError('invalid_url', raw, `"${raw}" is not a valid absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchError('invalid_url', raw, `Only http and https URLs can be fetched, not ${url.protocol.slice(0, -1)}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new FetchError('invalid_url', raw, 'URLs with a user name or password cannot be fetched');
  }
  if (url.hostname === '') {
    throw new FetchError('invalid_url', raw, `"${raw}" has no host`);
  }
  return url;
}
