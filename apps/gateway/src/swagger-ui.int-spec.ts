import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type Page } from 'playwright-core';
import { webPageOf } from '@sift/content-extraction';
import { PageRepository } from '@sift/pages';
import { createTestAccount, createTestKey } from '@sift/testing';
import { API_KEY_SCHEME, HTTP_METHODS, OPENAPI_TAGS, OPERATOR_SCHEME } from './openapi';
import { startTestGateway, TestGateway } from './testing/gateway-harness';

const CHROMIUM_ARGUMENTS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

interface SearchAnswer {
  query: string;
  results: Array<{ url: string; title: string; score: number }>;
}

// Swagger UI as an operator opens it in Debian's Chromium: the operations it lists, and "Try it out" on POST /search
// with the example the document ships, against a gateway whose local index holds pages that answer it.
describe('Swagger UI at /docs (Chromium)', () => {
  let gateway: TestGateway;
  let browser: Browser;
  let page: Page;
  let apiKey: string;
  const adminToken = randomUUID();
  const seededUrls = [`https://crawler-${randomUUID().slice(0, 8)}.example/how-it-works`, `https://crawler-${randomUUID().slice(0, 8)}.example/politeness`];

  beforeAll(async () => {
    gateway = await startTestGateway({ ADMIN_TOKEN: adminToken });
    const pages = new PageRepository(gateway.prisma);
    await pages.save(
      'operator',
      webPageOf({
        finalUrl: seededUrls[0],
        title: 'How a web crawler works',
        text:
          'A web crawler starts from seed URLs, downloads each page, extracts its links and adds them to a queue of pages to ' +
          'visit. The crawler works breadth-first, respects robots.txt and revisits pages to keep its web index fresh.',
        language: 'en',
      }),
      'import',
    );
    await pages.save(
      'operator',
      webPageOf({
        finalUrl: seededUrls[1],
        title: 'Web crawler politeness',
        text: 'A polite web crawler limits how often it requests pages from one host, so its work does not overload the site.',
        language: 'en',
      }),
      'import',
    );
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    apiKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGUMENTS });
    page = await browser.newPage();
    await page.goto(`${gateway.baseUrl}/docs`);
    await page.locator('.opblock').first().waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.prisma.document.deleteMany({ where: { url: { in: seededUrls } } });
    await gateway?.close();
  });

  it('lists each operation of the document once, grouped by tag with the data plane first', async () => {
    const served = (await (await page.request.get(`${gateway.baseUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(served.paths).flatMap(([path, item]) =>
      HTTP_METHODS.filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const shown = await page.locator('.opblock').evaluateAll((blocks) =>
      blocks.map((block) => {
        const method = block.querySelector('.opblock-summary-method')?.textContent ?? '';
        const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
        return `${method} ${path}`;
      }),
    );
    expect(shown).toHaveLength(documented.length);
    expect([...shown].sort()).toEqual([...documented].sort());
    expect(shown.slice(0, 5)).toEqual(['POST /search', 'POST /extract', 'POST /crawl', 'POST /map', 'POST /research']);
    const tagSections = await page.locator('.opblock-tag').evaluateAll((tags) => tags.map((tag) => tag.getAttribute('data-tag')));
    expect(tagSections).toEqual(OPENAPI_TAGS.map((tag) => tag.name));
  });

  it('authorizes with an API key through the dialog, and "Try it out" on POST /search returns 200 with results', async () => {
    await page.locator('.auth-wrapper .authorize').click();
    const dialog = page.locator('.modal-ux');
    // One form per security scheme: the tenant's key goes in bearer's (the operator's token has its own).
    const keyForm = dialog.locator('form').filter({ hasText: `${API_KEY_SCHEME} (http, Bearer)` });
    await keyForm.locator('input').fill(apiKey);
    await keyForm.locator('button.authorize').click();
    await keyForm.locator('button.btn-done').click();

    const search = page.locator('#operations-data-search');
    await search.locator('.opblock-summary').click();
    await search.locator('.try-out__btn').click();
    const exampleBody = JSON.parse(await search.locator('textarea.body-param__text').inputValue()) as Record<string, unknown>;
    expect(exampleBody).toMatchObject({ query: expect.any(String), search_depth: 'basic' });
    await search.locator('button.execute').click();

    const liveResponse = search.locator('.live-responses-table .response');
    await liveResponse.first().waitFor({ timeout: 30_000 });
    expect((await liveResponse.locator('.response-col_status').first().textContent())?.trim()).toBe('200');
    const answer = JSON.parse((await liveResponse.locator('.response-col_description pre').first().textContent()) ?? '') as SearchAnswer;
    expect(answer.query).toBe(exampleBody.query);
    expect(answer.results.map((result) => result.url)).toEqual(expect.arrayContaining(seededUrls));
  });

  it('authorizes the operator with ADMIN_TOKEN in its own form, and "Try it out" on an admin route answers', async () => {
    await page.locator('.auth-wrapper > button.authorize').click();
    const dialog = page.locator('.modal-ux');
    const operatorForm = dialog.locator('form').filter({ hasText: `${OPERATOR_SCHEME} (http, Bearer)` });
    await operatorForm.locator('input').fill(adminToken);
    await operatorForm.locator('button.authorize').click();
    await operatorForm.locator('button.btn-done').click();

    const plans = page.locator('#operations-admin-adminListPlans');
    await plans.locator('.opblock-summary').click();
    await plans.locator('.try-out__btn').click();
    await plans.locator('button.execute').click();
    const liveResponse = plans.locator('.live-responses-table .response');
    await liveResponse.first().waitFor({ timeout: 30_000 });
    expect((await liveResponse.locator('.response-col_status').first().textContent())?.trim()).toBe('200');
    const answer = JSON.parse((await liveResponse.locator('.response-col_description pre').first().textContent()) ?? '') as { plans: Array<{ id: string }> };
    expect(answer.plans.map((plan) => plan.id)).toContain('self-hosted');
  });
});
