import { FetchError } from '@sift/safe-fetch';
import { ExtractionFailure, failureReasonOf, timedOutReason } from './extraction-failure';

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
    expect(failureReasonOf(new ExtractionFailure('HTTP 404'), 10_000)).toBe('HTTP 404');
    expect(failureReasonOf(new TypeError('x is undefined'), 10_000)).toBe('Extraction failed: internal error');
  });
});
