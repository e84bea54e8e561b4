import { type LatencyProfile, loadLatencyProfile, pageFate, pageHost, seededFraction, upstreamMs } from './latency-profile';

const profile = loadLatencyProfile();
/** Enough paths that each band's share shows within a percentage point or two. */
const paths = Array.from({ length: 20_000 }, (_, index) => `/page-${index}.html`);

describe('the simulated web latency profile', () => {
  it('gives a path the same fate, host and latency on every draw', () => {
    for (const path of ['/git-commit.html', '/index.html', '/howto/rebase-from-internal-branch.html']) {
      expect(pageFate(profile, path)).toEqual(pageFate(loadLatencyProfile(), path));
      expect(pageHost(profile, path)).toBe(pageHost(profile, path));
    }
    expect(upstreamMs(profile, 'how to delete a remote branch')).toBe(upstreamMs(profile, 'how to delete a remote branch'));
  });

  it('spreads pages over the bands and hangs in the shares it states', () => {
    const fates = paths.map((path) => pageFate(profile, path));
    const share = (test: (ms: number | undefined) => boolean) => fates.filter((fate) => test(fate.kind === 'answers' ? fate.ms : undefined)).length / paths.length;
    const answering = 1 - profile.pages.hangShare;
    expect(share((ms) => ms === undefined)).toBeCloseTo(profile.pages.hangShare, 2);
    for (const band of profile.pages.bands) {
      expect(share((ms) => ms !== undefined && ms >= band.minMs && ms <= band.maxMs)).toBeCloseTo(band.share * answering, 1.5);
    }
    // Nothing falls between the bands.
    expect(share((ms) => ms === undefined || profile.pages.bands.some((band) => ms >= band.minMs && ms <= band.maxMs))).toBe(1);
  });

  it('keeps the upstream within its range and pages on every host', () => {
    const delays = paths.slice(0, 2000).map((path) => upstreamMs(profile, path));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(profile.searxng.minMs);
    expect(Math.max(...delays)).toBeLessThanOrEqual(profile.searxng.maxMs);
    const hosts = new Set(paths.slice(0, 2000).map((path) => pageHost(profile, path)));
    expect([...hosts].sort()).toEqual(Array.from({ length: profile.hosts.count }, (_, host) => host));
  });

  it('draws anew with another seed', () => {
    const reseeded: LatencyProfile = { ...profile, seed: `${profile.seed}-other` };
    const differing = paths.slice(0, 200).filter((path) => JSON.stringify(pageFate(profile, path)) !== JSON.stringify(pageFate(reseeded, path)));
    expect(differing.length).toBeGreaterThan(150);
    expect(seededFraction('a', 'b', 'c')).not.toBe(seededFraction('a', 'b', 'd'));
  });
});
