// Would anchor text help the Git documentation questions? For each question, the links pointing to its answer
// pages from the rest of the site (the link extractor's text and surrounding context, as the crawler sees them),
// and which of the question's content words those links carry that the answer pages themselves do not. A word
// only the links have is what anchor text could add to a page's index entry.
// Run: node scripts/run-ts.js bench/search-quality/anchor-context.ts
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { extractLinks } from '@sift/content-extraction';
import { benchDataDirectory } from '@sift/testing';

const siteRoot = path.join(benchDataDirectory(), 'git-htmldocs-site', 'site');
const origin = 'https://git-docs.example';
// Function words and the words every question shares with every page; a prefix of five letters stands in for a stem.
const IGNORED = new Set('a an the my i me to of in on for and or is it how do can what which that this from with at by be not are was have has had get one all every once'.split(' '));
const stems = (text: string): Set<string> =>
  new Set((text.toLowerCase().match(/[a-z]+/g) ?? []).filter((word) => word.length > 2 && !IGNORED.has(word)).map((word) => word.slice(0, 5)));

function htmlFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return htmlFiles(full);
    return entry.name.endsWith('.html') ? [full] : [];
  });
}

function main(): void {
  const incoming = new Map<string, string[]>();
  for (const file of htmlFiles(siteRoot)) {
    const page = `/${path.relative(siteRoot, file)}`;
    for (const link of extractLinks(readFileSync(file, 'utf8'), `${origin}${page}`).links) {
      const target = new URL(link.url);
      if (target.origin !== origin || target.pathname === page) continue;
      incoming.set(target.pathname, [...(incoming.get(target.pathname) ?? []), `${link.text} ${link.context ?? ''}`]);
    }
  }
  const questions = (JSON.parse(readFileSync(path.join(__dirname, 'git-docs-questions.json'), 'utf8')) as { questions: { input: string; pages: string[] }[] }).questions;
  let helped = 0;
  for (const question of questions) {
    const links = question.pages.flatMap((page) => incoming.get(page) ?? []);
    const fromLinks = stems(links.join(' '));
    const onPages = stems(question.pages.map((page) => readFileSync(path.join(siteRoot, page), 'utf8').replace(/<[^>]+>/g, ' ')).join(' '));
    const added = [...stems(question.input)].filter((stem) => fromLinks.has(stem) && !onPages.has(stem));
    if (added.length > 0) helped += 1;
    console.log(`${String(links.length).padStart(4)} links, words only they carry: ${(added.join(' ') || '–').padEnd(20)} ${question.input}`);
  }
  console.log(`questions whose answer pages gain a question word from the links pointing to them: ${helped} of ${questions.length}`);
}

main();
