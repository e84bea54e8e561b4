import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { GIT_DOCS_SITE_ROOT } from '@sift/testing';
import { HTML_ANALYSIS_VERSION, runTask } from './content-parsing.task';

/**
 * What HTML_ANALYSIS_VERSION makes of the Git documentation site's pages, as a digest. When extraction changes what
 * it makes of a page, this fails: raise HTML_ANALYSIS_VERSION (so stored pages made by the old code are extracted
 * again) and record the new digest under the new version.
 */
const RECORDED_DIGESTS: Record<number, string> = {
  1: '1c07c1cfc39569fc4f92b9c0639086a17995c33818d04fa5b7ee95bcf66a3c29',
};

describe('HTML_ANALYSIS_VERSION', () => {
  it('names what the extraction makes of a page: the Git site\'s pages come out as this version recorded', async () => {
    const files = readdirSync(GIT_DOCS_SITE_ROOT).filter((file) => file.endsWith('.html')).sort();
    expect(files.length).toBeGreaterThan(200);
    const digest = createHash('sha256');
    for (const file of files) {
      const url = `http://127.0.0.1:8080/${file}`;
      const result = await runTask({ kind: 'html', html: readFileSync(`${GIT_DOCS_SITE_ROOT}/${file}`, 'utf8'), status: 200, baseUrl: url, url, includeImages: true, extract: true });
      digest.update(JSON.stringify(result)).update('\n');
    }
    expect({ version: HTML_ANALYSIS_VERSION, digest: digest.digest('hex') }).toEqual({ version: HTML_ANALYSIS_VERSION, digest: RECORDED_DIGESTS[HTML_ANALYSIS_VERSION] });
  });
});
