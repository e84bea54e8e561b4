import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { GIT_DOCS_SITE_ROOT } from '@sift/testing';
import { HTML_ANALYSIS_VERSION, runTask } from './content-parsing.task';

/**
 * What HTML_ANALYSIS_VERSION makes of the Git documentation site's pages, as a digest: the one analysis ('html') every
 * caller of the page pipeline runs, with the page, its links and its index entry. When extraction changes what it makes of a
 * page, this fails: raise HTML_ANALYSIS_VERSION (so stored pages made by the old code are extracted again) and record
 * the new version with the new digest. A change that leaves the site's pages as they were still raises the version;
 * the recorded version then fails until it is raised here too.
 */
/**
 * The version and the digest of what it makes of the site. The version names the pages and links made (what a stored
 * page stands for); the digest also covers the analysis's shape, so a change of shape alone records a new digest under
 * the same version.
 */
const RECORDED = { version: 13, digest: '4b7f5a21b0f47555207643e78568bb2ea93ecc76695b54d781e038e30c2cce1b' };

describe('HTML_ANALYSIS_VERSION', () => {
  it("names what the extraction makes of a page: the Git site's pages come out as this version recorded", async () => {
    const files = readdirSync(GIT_DOCS_SITE_ROOT).filter((file) => file.endsWith('.html')).sort();
    expect(files.length).toBeGreaterThan(200);
    const digest = createHash('sha256');
    for (const file of files) {
      const url = `http://127.0.0.1:8080/${file}`;
      const html = readFileSync(`${GIT_DOCS_SITE_ROOT}/${file}`, 'utf8');
      const analysis = await runTask({ kind: 'html', html, status: 200, baseUrl: url, url, includeImages: true, extract: true, links: true, index: true });
      digest.update(JSON.stringify(analysis)).update('\n');
    }
    expect({ version: HTML_ANALYSIS_VERSION, digest: digest.digest('hex') }).toEqual(RECORDED);
  });
});
