// The simulated web's latency profile (profile.json) and the deterministic draws made from it: the same page
// path always gets the same latency, host and fate, in every run and for every checkout measured.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LatencyBand {
  /** Share of the answering pages in this band. */
  share: number;
  minMs: number;
  maxMs: number;
}

export interface RateLimit {
  requestsPerSecond: number;
  retryAfterSeconds: number;
}

export interface LatencyProfile {
  seed: string;
  pages: { bands: LatencyBand[]; hangShare: number };
  hosts: { count: number; rateLimited: RateLimit & { host: number } };
  searxng: { minMs: number; maxMs: number; resultsPerQuery: number };
  crawl: RateLimit & { latencyMs: number; rateLimitAfterPages: number; slowAfterPages: number; slowLatencyMs: number };
}

/** What a page does when asked: answer after `ms`, or never. */
export type PageFate = { kind: 'answers'; ms: number } | { kind: 'hangs' };

export function loadLatencyProfile(file = join(__dirname, 'profile.json')): LatencyProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as LatencyProfile;
}

/** A number in [0, 1) fixed by the seed, the purpose of the draw and its key (a page path, a query). */
export function seededFraction(seed: string, purpose: string, key: string): number {
  const digest = createHash('sha256').update(`${seed}\0${purpose}\0${key}`).digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** A whole number of milliseconds in [minMs, maxMs], drawn for `key`. */
export function seededMs(seed: string, purpose: string, key: string, minMs: number, maxMs: number): number {
  return Math.round(minMs + seededFraction(seed, purpose, key) * (maxMs - minMs));
}

/**
 * A page's fate by its path (query string excluded: the benchmark makes each visit's URL unique, and the page stays
 * as slow as it is). Hanging is drawn first; the bands share the answering pages in their proportions.
 */
export function pageFate(profile: LatencyProfile, path: string): PageFate {
  const { seed, pages } = profile;
  if (seededFraction(seed, 'hangs', path) < pages.hangShare) return { kind: 'hangs' };
  const total = pages.bands.reduce((sum, band) => sum + band.share, 0);
  let draw = seededFraction(seed, 'band', path) * total;
  const band = pages.bands.find((candidate) => (draw -= candidate.share) < 0) ?? pages.bands[pages.bands.length - 1];
  return { kind: 'answers', ms: seededMs(seed, 'latency', path, band.minMs, band.maxMs) };
}

/** Which of the simulated hosts serves a page (0 … hosts.count − 1). */
export function pageHost(profile: LatencyProfile, path: string): number {
  return Math.floor(seededFraction(profile.seed, 'host', path) * profile.hosts.count);
}

/** How long the SearXNG stand-in takes to answer a query. */
export function upstreamMs(profile: LatencyProfile, query: string): number {
  return seededMs(profile.seed, 'searxng', query, profile.searxng.minMs, profile.searxng.maxMs);
}
