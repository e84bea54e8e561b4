import { type FixtureServer, startFixtureServer } from '@sift/safe-fetch';

export interface SearxngResult {
  url: string;
  title: string;
  content: string;
}

/**
 * A SearXNG instance on loopback speaking its JSON wire format (`GET /search?q=…&format=json`): each query is
 * answered with `results` (or what `results(query)` gives), each tagged with the engine "fixture". Tests point
 * SEARXNG_URL at its `url`.
 */
export function startLoopbackSearxng(results: SearxngResult[] | ((query: string) => SearxngResult[])): Promise<FixtureServer> {
  return startFixtureServer({
    '/search': (request, response) => {
      const query = new URL(request.url ?? '/', 'http://searxng').searchParams.get('q') ?? '';
      const answered = (typeof results === 'function' ? results(query) : results).map((result) => ({ ...result, engine: 'fixture' }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ query, number_of_results: answered.length, results: answered, answers: [], corrections: [], infoboxes: [], suggestions: [], unresponsive_engines: [] }),
      );
    },
  });
}
