import robotsParser from 'robots-parser';

export const CRAWLER_USER_AGENT = 'SiftBot';

// RFC 9309 §2.5: a crawler must parse at least 500 KiB; content beyond that may be ignored.
const MAX_ROBOTS_LENGTH = 500 * 1024;

/** What robots.txt says about one origin, for SiftBot. */
export interface RobotsRules {
  isAllowed(url: URL): boolean;
  /** Crawl-delay in milliseconds, when the file sets one. */
  crawlDelayMs?: number;
  sitemaps: string[];
}

const ALLOW_ALL: RobotsRules = { isAllowed: () => true, sitemaps: [] };
const DISALLOW_ALL: RobotsRules = { isAllowed: () => false, sitemaps: [] };

/**
 * Rules from a robots.txt response, per RFC 9309 §2.3.1: 2xx is parsed; 4xx ("unavailable") allows everything;
 * 5xx ("unreachable") disallows everything. A fetch that never produced a response is passed as status 0.
 */
export function robotsRulesFromResponse(robotsUrl: string, status: number, text: string): RobotsRules {
  if (status >= 200 && status < 300) return parseRobots(robotsUrl, text);
  if (status >= 400 && status < 500) return ALLOW_ALL;
  return DISALLOW_ALL;
}

function parseRobots(robotsUrl: string, text: string): RobotsRules {
  const robots = robotsParser(robotsUrl, text.slice(0, MAX_ROBOTS_LENGTH));
  const crawlDelaySeconds = robots.getCrawlDelay(CRAWLER_USER_AGENT);
  return {
    // robots-parser answers undefined for URLs of another origin; callers only ask about this origin.
    isAllowed: (url) => robots.isAllowed(url.href, CRAWLER_USER_AGENT) !== false,
    crawlDelayMs: crawlDelaySeconds !== undefined && crawlDelaySeconds > 0 ? crawlDelaySeconds * 1000 : undefined,
    sitemaps: robots.getSitemaps(),
  };
}
