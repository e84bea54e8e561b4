import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { GIT_DOCS_SITE_ROOT } from '@sift/testing';
import { HTML_ANALYSIS_VERSION, runTask } from './content-parsing.task';

/**
 * What HTML_ANALYSIS_VERSION makes of the Git documentation site's pages, as a digest: the extractor's analysis ('html')
 * and the crawler's page and links ('page-with-links'), as each runs them. When extraction changes what it makes of a
 * page, this fails: raise HTML_ANALYSIS_VERSION (so stored pages made by the old code are extracted again) and record
 * the new version with the new digest. A change that leaves the site's pages as they were still raises the version;
 * the recorded version then fails until it is raised here too.
 */
/** The version and the digest of what it makes of the site; both change together. */
const RECORDED = { version: 13, digest: 'bf6226bec0f293d99fd95053b437e1cb4a130f2482b32e81774c76f9b628b0e3' };

describe('HTML_ANALYSIS_VERSION', () => {
  it("names what the extraction makes of a page: the Git site's pages come out as this version recorded", async () => {
    const files = readdirSync(GIT_DOCS_SITE_ROOT).filter((file) => file.endsWith('.html')).sort();
    expect(files.length).toBeGreaterThan(200);
    const digest = createHash('sha256');
    for (const file of files) {
      const url = `http://127.0.0.1:8080/${file}`;
      const html = readFileSync(`${GIT_DOCS_SITE_ROOT}/${file}`, 'utf8');
      const analysis = await runTask({ kind: 'html', html, status: 200, baseUrl: url, url, includeImages: true, extract: true });
      const crawled = await runTask({ kind: 'page-with-links', html, options: { baseUrl: url, url, includeImages: true, format: 'markdown' } });
      digest.update(JSON.stringify(analysis)).update('\n').update(JSON.stringify(crawled)).update('\n');
    }
    expect({ version: HTML_ANALYSIS_VERSION, digest: digest.digest('hex') }).toEqual(RECORDED);
  });
});
