import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decodeBody } from '@sift/safe-fetch';
import { benchDataDirectory } from '@sift/testing';

// The data is third-party and read in place, never copied into the repository (see ../shared/bench-data/README.md).
const dataRoot = benchDataDirectory();

export interface ScrapinghubPage {
  id: string;
  url: string;
  html: string;
  articleBody: string;
}

export interface TrafilaturaPage {
  url: string;
  html: string;
  with: string[];
  without: string[];
}

export function loadScrapinghub(): ScrapinghubPage[] {
  const folder = path.join(dataRoot, 'scrapinghub-aeb', 'dev');
  const truth = JSON.parse(readFileSync(path.join(folder, 'ground-truth.json'), 'utf8')) as Record<string, { articleBody: string; url: string }>;
  return Object.entries(truth).map(([id, { articleBody, url }]) => ({
    id,
    url,
    articleBody,
    // The benchmark's pages are stored as UTF-8 whatever their original charset was.
    html: gunzipSync(readFileSync(path.join(folder, 'html', `${id}.html.gz`))).toString('utf8'),
  }));
}

export function loadTrafilatura(): TrafilaturaPage[] {
  const folder = path.join(dataRoot, 'trafilatura-eval', 'dev');
  const evaluation = JSON.parse(readFileSync(path.join(folder, 'evaldata.json'), 'utf8')) as Record<
    string,
    { file: string; with: string[]; without: string[] }
  >;
  return Object.entries(evaluation).map(([key, entry]) => ({
    // The set records no page addresses; only relative links and images depend on it.
    url: `https://bench.invalid/${encodeURIComponent(key)}`,
    // Original encodings: decoded as the service's fetches decode a page served without a charset.
    html: decodeBody(gunzipSync(readFileSync(path.join(folder, 'html', `${entry.file}.gz`))), 'html', undefined).text,
    with: entry.with,
    without: entry.without,
  }));
}
