import { FetchError } from '@sift/safe-fetch';
import { ExtractionFailure, failureOf, failureReasonOf, httpStatusFailure, timedOutReason } from './extraction-failure';

describe('failureReasonOf', () => {
  it('hides which internal address a blocked URL resolved to', () => {
    const error = new FetchError('blocked_address', 'http://10.0.0.1/', '10.0.0.1 is not a public internet address and cannot be fetched');
    expect(failureReasonOf(error, 10_000)).toBe('URL is not supported');
  });

  it('reports a timeout in the seconds the caller asked for', () => {
    expect(failureReasonOf(new FetchError('timeout', 'https://a.test/', 'deadline'), 10_000)).toBe('Timed out after 10s');
    expect(timedOutReason(1_500)).toBe('Timed out after 1.5s');
  });

  it('names the unsupported content type', () => {
    const error = new FetchError('unsupported_content', 'https://a.test/x.png', 'The resource is image/png, which cannot be read as a web page or document');
    expect(failureReasonOf(error, 10_000)).toBe('Unsupported content type: image/png');
  });

  it('passes an extraction failure through and masks unexpected errors', () => {
    expect(failureReasonOf(new ExtractionFailure('not_found', 'HTTP 404'), 10_000)).toBe('HTTP 404');
    expect(failureReasonOf(new TypeError('x is undefined'), 10_000)).toBe('Extraction failed: internal error');
  });
});

describe('failureOf', () => {
  it.each([
    [404, 'not_found'],
    [410, 'not_found'],
    [401, 'forbidden'],
    [403, 'forbidden'],
    [429, 'rate_limited'],
    [500, 'server_error'],
    [503, 'server_error'],
    [451, 'http_error'],
  ])('codes HTTP %i as %s', (status, code) => {
    expect(failureOf(httpStatusFailure(status), 10_000)).toEqual({ error: `HTTP ${status}`, errorCode: code });
  });

  it.each([
    ['invalid_url', 'invalid_url'],
    ['blocked_address', 'not_allowed'],
    ['timeout', 'timeout'],
    ['too_large', 'too_large'],
    ['unsupported_content', 'unsupported_type'],
    ['too_many_redirects', 'bad_redirect'],
    ['redirect_without_location', 'bad_redirect'],
    ['dns', 'dns'],
    ['network', 'connection'],
  ] as const)("codes safe-fetch's %s as %s", (fetchCode, code) => {
    expect(failureOf(new FetchError(fetchCode, 'https://a.test/', 'message'), 10_000).errorCode).toBe(code);
  });

  it('codes anything unexpected as internal', () => {
    expect(failureOf(new TypeError('x is undefined'), 10_000)).toEqual({ error: 'Extraction failed: internal error', errorCode: 'internal' });
  });
});
