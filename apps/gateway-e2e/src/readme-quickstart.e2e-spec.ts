import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startLoopbackServer, type LoopbackServer } from './loopback-server';
import { startSiftStack, type SiftStack } from './sift-stack';

jest.setTimeout(240_000);

const repositoryRoot = resolve(__dirname, '..', '..', '..');

/**
 * The commands of README.md's "## Quick start" section, read when the test runs so that an edited README is what
 * runs: its bash blocks, one command per line (a line ending in a backslash goes on), comment lines left out.
 */
function quickStartCommands(): string[] {
  const readme = readFileSync(join(repositoryRoot, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Quick start\n')) ?? '';
  const commands: string[] = [];
  for (const [, block] of section.matchAll(/^```bash\n([\s\S]*?)^```$/gm)) {
    let command = '';
    for (const line of block.split('\n')) {
      command += line;
      if (line.endsWith('\\')) {
        command += '\n';
        continue;
      }
      if (command.trim() && !command.trimStart().startsWith('#')) commands.push(command.trim());
      command = '';
    }
  }
  return commands;
}

type Step = 'start' | 'key' | 'search' | 'crawl' | 'import';

/** What this test does with each quick start command: runs it as one of its steps, or skips it for a stated reason. */
const RULES: Array<{ matches: RegExp; step: Step } | { matches: RegExp; skipped: string }> = [
  { matches: /docker compose|SEARXNG_SECRET/, skipped: 'the Docker Compose path; this test follows the one without' },
  { matches: /SEARXNG_URL/, skipped: "SearXNG: nothing reaches the web here (and the line appends to the checkout's .env)" },
  { matches: /^npm test\b/, skipped: 'the whole suite, which runs this test' },
  { matches: /\bnpm start\b/, step: 'start' },
  { matches: /^KEY=/, step: 'key' },
  { matches: /\bcurl\b[\s\S]*\/search\b/, step: 'search' },
  { matches: /\badmin -- index crawl\b/, step: 'crawl' },
  { matches: /\badmin -- index import\b/, step: 'import' },
];

function ruleFor(command: string) {
  return RULES.find((rule) => rule.matches.test(command));
}

function commandOf(step: Step): string {
  const found = quickStartCommands().filter((command) => {
    const rule = ruleFor(command);
    return rule && 'step' in rule && rule.step === step;
  });
  if (found.length !== 1) throw new Error(`README.md's quick start has ${found.length} commands for the "${step}" step: ${JSON.stringify(found)}`);
  return found[0];
}

// The substitutions, each a difference between this machine and the README's reader's; nothing else is changed.
/** The checkout is installed already: `npm ci` is not run again. */
const withoutInstall = (command: string) => command.replace(/^npm ci\s*&&\s*/, '');
/** The gateway listens on a free port (PORT in the environment), not on 3000, which another Sift may hold. */
const onPort = (command: string, port: string) => command.replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`);
/** The crawl's example site (docs.python.org) is out of reach here: the loopback fixture site stands in for it. */
const crawlingSite = (command: string, url: string) => command.replace(/https?:\/\/\S+/, url);
/** The import reads a file this test wrote; `npm run` runs in the repository root, so a relative name would land there. */
const importingFile = (command: string, file: string) => command.replace(/\S+\.jsonl\b/, file);
/** The search after filling the index asks about what the filled-in pages say, not "what is sift". */
const askingAbout = (command: string, query: string) => command.replace(/("query":\s*")[^"]*(")/, `$1${query}$2`);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
const serve = (html: string) => (_request: unknown, response: ServerResponse) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);

/** A small tutorial site in the shape of the README's example: a start page linking to its chapters. */
const TUTORIAL: Record<string, string> = {
  '/tutorial/': page(
    'The Harbour tutorial',
    '<p>This tutorial introduces the basic ideas of the Harbour programming language informally, one chapter at a time.</p>' +
      '<ul><li><a href="/tutorial/controlflow.html">More control flow tools</a></li><li><a href="/tutorial/datastructures.html">Data structures</a></li></ul>',
  ),
  '/tutorial/controlflow.html': page(
    'More control flow tools',
    '<p>Besides the while statement, Harbour knows the usual control flow statements: if, for and match.</p>' +
      '<p>The for statement iterates over the items of any sequence in the order they appear; range() yields arithmetic progressions.</p>',
  ),
  '/tutorial/datastructures.html': page(
    'Data structures',
    '<p>List comprehensions provide a concise way to create lists. A list comprehension consists of brackets containing an expression ' +
      'followed by a for clause, then zero or more for or if clauses.</p>' +
      '<p>Common uses of list comprehensions are to make new lists where each element is the result of some operation applied to each member of another sequence.</p>',
  ),
};
const CRAWLED_QUERY = 'how do list comprehensions work';
const CRAWLED_ANSWER = '/tutorial/datastructures.html';

const IMPORTED_URL = 'https://handbook.example/onboarding';
const IMPORTED_QUERY = 'onboarding checklist for new engineers';
const MY_PAGES = {
  url: IMPORTED_URL,
  title: 'Onboarding checklist for new engineers',
  text: 'The onboarding checklist walks new engineers through their first week: laptop set-up, access requests, and a first change shipped with a mentor. '.repeat(3),
};

interface SearchAnswer {
  results?: Array<{ url: string }>;
}

// Issue: "The README's quick start followed on a clean clone works as written, including the first useful search."
describe("README.md's quick start, followed as written (without Docker Compose)", () => {
  let site: LoopbackServer;
  let stack: SiftStack;
  let folder: string;
  let env: NodeJS.ProcessEnv;

  /** Runs one command as a shell would, from the repository root where the reader of the README stands. */
  const shell = (command: string) => promisify(execFile)('bash', ['-c', command], { cwd: repositoryRoot, env, encoding: 'utf8', timeout: 120_000 });

  /** Runs the README's search command; the status comes from a curlrc (stderr), so the command's text stays as written. */
  async function search(command: string): Promise<{ status: string; answer: SearchAnswer | string }> {
    const { stdout, stderr } = await shell(command);
    let answer: SearchAnswer | string = stdout;
    try {
      answer = JSON.parse(stdout) as SearchAnswer;
    } catch {
      // Not JSON: the raw output is what the assertion shows.
    }
    return { status: stderr.trim(), answer };
  }

  const port = () => stack.env.PORT as string;
  const firstUrl = (answer: SearchAnswer | string) => (typeof answer === 'string' ? answer : answer.results?.[0]?.url);

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'sift-readme-quickstart-'));
    // curl reads $CURL_HOME/.curlrc: the status goes to stderr, so the search command and its output stay as written.
    writeFileSync(join(folder, '.curlrc'), 'write-out = "%{stderr}%{http_code}"\n');
    site = await startLoopbackServer(Object.fromEntries(Object.entries(TUTORIAL).map(([path, html]) => [path, serve(html)])));
    // A database no one has created yet, as on a clean machine (`npm start` creates and migrates it). Named after this
    // file's copy of the test database, so the suite's teardown drops it with the copy.
    const database = new URL(process.env.DATABASE_URL as string);
    database.pathname = `${database.pathname.slice(0, 50)}_quickstart`;
    // A Redis database no other stack of the suite uses: the README's defaults (queue prefix, worker ports) are kept.
    const redis = new URL(process.env.REDIS_URL as string);
    redis.pathname = '/9';
    stack = await startSiftStack(
      {
        DATABASE_URL: database.toString(),
        REDIS_URL: redis.toString(),
        // The fixture site is on loopback, which the egress policy refuses unless allowed.
        FETCH_ALLOW_CIDRS: '127.0.0.0/8',
        EXTRACTOR_PORT: undefined,
        CRAWLER_PORT: undefined,
        RESEARCH_PORT: undefined,
        QUEUE_PREFIX: undefined,
      },
      { command: withoutInstall(commandOf('start')) },
    );
    env = { ...stack.env, CURL_HOME: folder };
  });

  afterAll(async () => {
    await stack?.stop();
    await site?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('runs or skips, for a stated reason, every command of the quick start', () => {
    const commands = quickStartCommands();
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.filter((command) => !ruleFor(command))).toEqual([]);
  });

  it('yields a key from the key command', async () => {
    const { stdout, stderr } = await shell(`${onPort(commandOf('key'), port())}\nprintf %s "$KEY"`);
    expect({ key: stdout, stderr }).toEqual({ key: expect.stringMatching(/^sift-(dev|prod)-[\w-]{43}$/), stderr });
    env.KEY = stdout;
  });

  it('answers the first search 200 with `"results": []`, as the README says of a fresh install', async () => {
    expect(await search(onPort(commandOf('search'), port()))).toEqual({ status: '200', answer: expect.objectContaining({ results: [] }) });
  });

  it("finds a page of the crawled site with a search right after the README's crawl command returns", async () => {
    const crawl = await shell(crawlingSite(commandOf('crawl'), `${site.url}/tutorial/`));

    const { status, answer } = await search(askingAbout(onPort(commandOf('search'), port()), CRAWLED_QUERY));
    // The crawl's output rides along on both sides, so a failure's diff shows what the crawl said.
    expect({ status, firstResult: firstUrl(answer), crawl: crawl.stdout }).toEqual({ status: '200', firstResult: `${site.url}${CRAWLED_ANSWER}`, crawl: crawl.stdout });
  });

  it("finds an imported document with a search right after the README's import command returns", async () => {
    const file = join(folder, 'my-pages.jsonl');
    writeFileSync(file, `${JSON.stringify(MY_PAGES)}\n`);
    const imported = await shell(importingFile(commandOf('import'), file));

    const { status, answer } = await search(askingAbout(onPort(commandOf('search'), port()), IMPORTED_QUERY));
    expect({ status, firstResult: firstUrl(answer), imported: imported.stdout }).toEqual({ status: '200', firstResult: IMPORTED_URL, imported: imported.stdout });
  });
});
