import type { ContentFormat, ExtractDepth } from '@sift/queue-contracts';
import { someCopyMayAnswer, storedCopyAnswers } from './stored-copy';
import type { DocumentSource } from './stored-page';

const needs = (extractDepth: ExtractDepth, format: ContentFormat, includeImages: boolean) => ({ extractDepth, format, includeImages });

describe('storedCopyAnswers', () => {
  it("answers a basic text request without images from an operator's imported text, and nothing more", () => {
    const imported = { source: 'import' as const };
    expect(storedCopyAnswers(imported, needs('basic', 'text', false))).toBe(true);
    expect(storedCopyAnswers(imported, needs('basic', 'text', true))).toBe(false);
    expect(storedCopyAnswers(imported, needs('basic', 'markdown', false))).toBe(false);
    expect(storedCopyAnswers(imported, needs('advanced', 'text', false))).toBe(false);
  });

  it("answers any basic request from a copy made from the site's response, in either format, with its images", () => {
    for (const source of ['extract', 'crawl'] satisfies DocumentSource[]) {
      for (const format of ['text', 'markdown'] satisfies ContentFormat[]) {
        for (const includeImages of [false, true]) expect(storedCopyAnswers({ source }, needs('basic', format, includeImages))).toBe(true);
      }
    }
  });

  it('never answers an advanced extraction: the store does not record that a copy was rendered', () => {
    for (const source of ['extract', 'crawl', 'import'] satisfies DocumentSource[]) {
      expect(storedCopyAnswers({ source }, needs('advanced', 'markdown', false))).toBe(false);
    }
    // So the store is not asked for one; it is for a basic request.
    expect(someCopyMayAnswer(needs('advanced', 'markdown', false))).toBe(false);
    expect(someCopyMayAnswer(needs('basic', 'markdown', true))).toBe(true);
  });
});
