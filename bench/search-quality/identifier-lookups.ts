// Looking up a setting by its name alone: every `section.name` variable git-config.html defines (its `<dt>` terms:
// "core.autocrlf", "blame.showEmail"; 406 of them), searched as the name without its section ("autocrlf",
// "showEmail"), the way a user or an agent types it. A hit is a page among the first three whose stored text names the
// full variable. Runs LocalIndexProvider directly (basic depth, include_domains git-docs.example) against an index
// that run.ts imported: BENCH_DATABASE_URL (required), e.g. the quality benchmark's database.
// Run: BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sift_bench_quality node scripts/run-ts.js bench/search-quality/identifier-lookups.ts
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPrismaClient, queryRows } from '@sift/persistence';
import { LocalIndexProvider } from '@sift/search-index';
import { GIT_DOCS_SITE_ROOT } from '@sift/testing';

const DEFINED_VARIABLE = /<dt class="hdlist1">([A-Za-z]+\.[A-Za-z][A-Za-z0-9]*)<\/dt>/g;

async function main(): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) throw new Error('BENCH_DATABASE_URL must name a database the quality benchmark imported');
  const html = readFileSync(join(GIT_DOCS_SITE_ROOT, 'git-config.html'), 'utf8');
  const variables = [...new Set([...html.matchAll(DEFINED_VARIABLE)].map((match) => match[1]))];
  const prisma = createPrismaClient(databaseUrl, 2);
  const index = new LocalIndexProvider(prisma, { statisticsTtlMs: 600_000 });
  let hits = 0;
  const misses: string[] = [];
  for (const variable of variables) {
    const name = variable.slice(variable.indexOf('.') + 1);
    const found = await index.search({ query: name, maxResults: 3, depth: 'basic', includeDomains: ['git-docs.example'] });
    const naming = await queryRows<{ url: string }>(prisma, {
      text: 'SELECT url FROM documents WHERE url = ANY($1::text[]) AND strpos(lower(text), lower($2)) > 0',
      values: [found.map((candidate) => candidate.url), variable],
    });
    if (naming.length > 0) hits += 1;
    else misses.push(`${variable} (searched "${name}"): ${found.map((candidate) => new URL(candidate.url).pathname).join(' ') || 'nothing'}`);
  }
  console.log(`${variables.length} variables of git-config.html searched by name alone: success@3 ${(hits / variables.length).toFixed(3)} (${hits})`);
  console.log(`first misses:\n  ${misses.slice(0, 15).join('\n  ')}`);
  await prisma.$disconnect();
}

void main();
