import { connect } from 'node:net';
import {
  ChangeRoleRequestDto,
  CrawlRequestDto,
  DeactivateKeysRequestDto,
  ExtractRequestDto,
  FeedbackRequestDto,
  GenerateKeysRequestDto,
  InviteMemberRequestDto,
  LabeledScoreDto,
  LogsRequestDto,
  MapRequestDto,
  ResearchRequestDto,
  SearchRequestDto,
  UrlScoreDto,
} from '@sift/api-contracts';
import { addTestMember, createTestAccount, createTestKey } from '@sift/testing';
import fc from 'fast-check';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { deeplyNested, FuzzBody, hostileString, NestedDtos, requestBodyArbitrary, researchBodyArbitrary } from './request-fuzz';

/**
 * Requests per endpoint. 2000 keeps the suite near a minute on two cores; SIFT_FUZZ_RUNS=20000 is the long run
 * recorded in docs/security.md.
 */
const REQUESTS_PER_ENDPOINT = Number(process.env.SIFT_FUZZ_RUNS ?? 2000);
/** Requests in flight at once: one property run sends a batch of this many. */
const BATCH = 8;

const NESTED_DTOS: NestedDtos = new Map([
  [FeedbackRequestDto, new Map<string, typeof LabeledScoreDto | typeof UrlScoreDto>([['extra_scores', LabeledScoreDto], ['urls_scores', UrlScoreDto]])],
  [UrlScoreDto, new Map([['scores', LabeledScoreDto]])],
]);

interface FuzzTarget {
  name: string;
  method: 'POST' | 'GET' | 'PATCH' | 'DELETE';
  path: fc.Arbitrary<string>;
  body?: fc.Arbitrary<FuzzBody>;
  /**
   * Which caller sends it; the data-plane key has a credit limit of 0, so nothing reaches a worker. Deactivation
   * has a team of its own: it reads every key of the account, and generate-keys mints thousands in the other one.
   * It also has a key of its own there: a body naming no key deactivates the calling key (as in Tavily), which
   * must not leave key-info's key refused.
   */
  caller: 'data' | 'owner' | 'keyOwner' | 'keyDeactivator';
  /** Its part of REQUESTS_PER_ENDPOINT: the four team routes share one endpoint's count; the issue does not name the other key routes. */
  share?: number;
  /**
   * The longest one of its requests may take to be answered, for a route whose refusals need no network (a
   * URL's host may be looked up in DNS first): an input that holds the gateway's event loop shows here.
   */
  answerWithinMs?: number;
}

interface Answer {
  status: number;
  text: string;
  elapsedMs: number;
}

const SPEC_ERROR = { detail: { error: expect.any(String) } };

/** Answers are counted per endpoint and status, and every bad one is kept for the failure message. */
class Tally {
  readonly byEndpoint = new Map<string, Map<number, number>>();
  private readonly violations = new Map<string, string[]>();

  record(endpoint: string, request: string, answer: Answer): void {
    const statuses = this.byEndpoint.get(endpoint) ?? new Map<number, number>();
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    this.byEndpoint.set(endpoint, statuses);
    const problem = problemOf(endpoint, answer);
    const found = this.violations.get(endpoint) ?? [];
    if (problem && found.length < 10) found.push(`${request.slice(0, 200)} -> ${answer.status} ${answer.text.slice(0, 200)}: ${problem}`);
    this.violations.set(endpoint, found);
  }

  violationsOf(endpoint: string): string[] {
    return this.violations.get(endpoint) ?? [];
  }

  total(endpoint: string): number {
    return [...(this.byEndpoint.get(endpoint)?.values() ?? [])].reduce((sum, count) => sum + count, 0);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Zero 5xx; every 4xx in the spec's shape (MCP may also answer in JSON-RPC's own error shape, as its clients expect). */
function problemOf(endpoint: string, answer: Answer): string | undefined {
  if (answer.status >= 500) return 'server error';
  if (answer.status < 400) return undefined;
  const body = parseJson(answer.text);
  const specShape = typeof (body as { detail?: { error?: unknown } })?.detail?.error === 'string';
  const keylessShape = typeof (body as { error?: { message?: unknown } })?.error?.message === 'string';
  const jsonRpcShape = endpoint === 'mcp' && typeof (body as { jsonrpc?: unknown; error?: { message?: unknown } })?.error?.message === 'string';
  return specShape || keylessShape || jsonRpcShape ? undefined : 'error body not in the spec shape';
}

const uuid = fc.uuid();
/** A field of a key-management body that names nothing of the account: junk, or ids of keys and requests that are not there. */
const wrongTypeOrForeignId = fc.oneof(hostileString, uuid, fc.array(fc.oneof(uuid, hostileString), { maxLength: 3 }), fc.constant({ id: null }));
/** Every UTF-8 byte percent-encoded (a lone surrogate becomes U+FFFD, as a client would send it). */
const percentEncoded = (text: string) => [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
const anyPathSegment = fc.oneof(uuid, fc.constantFrom('%00', '%ED%A0%80', '%E0%A4%A', '%', '..', 'a'.repeat(3000), '%F0%9F%98%80'), fc.string({ maxLength: 20 }).map(percentEncoded));
const queryValue = fc.oneof(hostileString.map(percentEncoded), fc.uuid(), fc.constantFrom('%00', '%ED%A0%80', '%zz', 'a&key_id=b', 'x[]=1', '%'));

const mcpArguments = fc.oneof(
  requestBodyArbitrary(SearchRequestDto).map((body) => ({ tool: 'search', body })),
  requestBodyArbitrary(ExtractRequestDto).map((body) => ({ tool: 'extract', body })),
);
const mcpBody: fc.Arbitrary<FuzzBody> = fc.oneof(
  fc.tuple(mcpArguments, fc.integer({ min: 1, max: 1000 })).map(([{ tool, body }, id]) => {
    const argumentsText = body.text.trim().startsWith('{') && parseJson(body.text) !== undefined ? body.text : '{}';
    return { text: `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${tool}","arguments":${argumentsText}}}`, contentType: 'application/json' };
  }),
  fc.tuple(mcpArguments, fc.integer({ min: 1, max: 5 })).map(([{ tool, body }, count]) => {
    const argumentsText = parseJson(body.text) !== undefined && body.text.trim().startsWith('{') ? body.text : '{}';
    const calls = Array.from({ length: count }, (_, index) => `{"jsonrpc":"2.0","id":${index},"method":"tools/call","params":{"name":"${tool}","arguments":${argumentsText}}}`);
    return { text: `[${calls.join(',')}]`, contentType: 'application/json' };
  }),
  fc.constantFrom(
    '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}',
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
    '{"jsonrpc":"2.0","id":{},"method":"tools/call"}',
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":${deeplyNested(2000, 'array')}}}}`,
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"\\u0000"}}}',
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope","arguments":{}}}',
  ).map((text) => ({ text, contentType: 'application/json' })),
  requestBodyArbitrary(undefined),
);

const TARGETS: FuzzTarget[] = [
  { name: 'search', method: 'POST', path: fc.constant('/search'), body: requestBodyArbitrary(SearchRequestDto), caller: 'data' },
  { name: 'extract', method: 'POST', path: fc.constant('/extract'), body: requestBodyArbitrary(ExtractRequestDto), caller: 'data' },
  { name: 'crawl', method: 'POST', path: fc.constant('/crawl'), body: requestBodyArbitrary(CrawlRequestDto), caller: 'data' },
  { name: 'map', method: 'POST', path: fc.constant('/map'), body: requestBodyArbitrary(MapRequestDto), caller: 'data' },
  { name: 'feedback', method: 'POST', path: fc.constant('/feedback'), body: requestBodyArbitrary(FeedbackRequestDto, NESTED_DTOS), caller: 'data' },
  { name: 'usage', method: 'GET', path: queryValue.map((value) => `/usage?project_id=${value}`), caller: 'data' },
  { name: 'logs', method: 'POST', path: fc.constant('/logs'), body: requestBodyArbitrary(LogsRequestDto), caller: 'owner' },
  { name: 'generate-keys', method: 'POST', path: fc.constant('/generate-keys'), body: requestBodyArbitrary(GenerateKeysRequestDto), caller: 'owner' },
  { share: 0.1, name: 'deactivate-keys', method: 'POST', path: fc.constant('/deactivate-keys'), body: requestBodyArbitrary(DeactivateKeysRequestDto), caller: 'keyDeactivator' },
  { share: 0.1, name: 'key-info', method: 'GET', path: queryValue.map((value) => `/key-info?key_id=${value}`), caller: 'keyOwner' },
  { share: 0.25, name: 'team list', method: 'GET', path: fc.constant('/team/members'), caller: 'owner' },
  { share: 0.25, name: 'team invite', method: 'POST', path: fc.constant('/team/members'), body: requestBodyArbitrary(InviteMemberRequestDto), caller: 'owner' },
  { share: 0.25, name: 'team role', method: 'PATCH', path: anyPathSegment.map((id) => `/team/members/${id}`), body: requestBodyArbitrary(ChangeRoleRequestDto), caller: 'owner' },
  { share: 0.25, name: 'team remove', method: 'DELETE', path: anyPathSegment.map((id) => `/team/members/${id}`), caller: 'owner' },
  { name: 'mcp', method: 'POST', path: fc.constant('/mcp'), body: mcpBody, caller: 'data' },
  // Every schema is checked before the credit check, so the data key's limit of 0 keeps research off the queue.
  {
    share: 0.5,
    name: 'research',
    method: 'POST',
    path: fc.constant('/research'),
    body: fc.oneof(researchBodyArbitrary, requestBodyArbitrary(ResearchRequestDto)),
    caller: 'data',
    // A hostile output_schema held the gateway for 11 s per request; the costliest allowed one compiles in under a second.
    answerWithinMs: 10_000,
  },
];

describe('request fuzzing: no input makes the gateway answer 5xx, and every 4xx is in the spec shape', () => {
  let gateway: TestGateway;
  const keys = { data: '', owner: '', keyOwner: '', keyDeactivator: '' };
  const tally = new Tally();

  beforeAll(async () => {
    // Rate limits would turn the fuzz into a stream of 429s before validation is ever reached.
    gateway = await startTestGateway({
      RATE_LIMIT_DEV_PER_MINUTE: '10000000',
      RATE_LIMIT_PROD_PER_MINUTE: '10000000',
      RATE_LIMIT_CRAWL_PER_MINUTE: '10000000',
      RATE_LIMIT_RESEARCH_PER_MINUTE: '10000000',
      RATE_LIMIT_USAGE_PER_10_MINUTES: '10000000',
    });
    const dataAccount = await createTestAccount(gateway.prisma, { plan: 'growth', name: 'fuzz-data' });
    // A credit limit of 0: every valid-shaped search, extract, crawl or map stops at the credit check, no worker needed.
    keys.data = (await createTestKey(gateway.prisma, dataAccount.id, { creditLimit: 0 })).apiKey;
    const team = await createTestAccount(gateway.prisma, { plan: 'enterprise', name: 'fuzz-team' });
    const owner = await addTestMember(gateway.prisma, team.id, { role: 'owner' });
    keys.owner = (await createTestKey(gateway.prisma, team.id, { memberId: owner.id })).apiKey;
    const keyTeam = await createTestAccount(gateway.prisma, { plan: 'enterprise', name: 'fuzz-keys' });
    const keyOwner = await addTestMember(gateway.prisma, keyTeam.id, { role: 'owner' });
    keys.keyOwner = (await createTestKey(gateway.prisma, keyTeam.id, { memberId: keyOwner.id })).apiKey;
    keys.keyDeactivator = (await createTestKey(gateway.prisma, keyTeam.id, { memberId: keyOwner.id })).apiKey;
  }, 60_000);

  afterAll(async () => {
    if (process.env.SIFT_FUZZ_REPORT) {
      for (const [endpoint, statuses] of tally.byEndpoint) console.log(`${endpoint}: ${tally.total(endpoint)} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    }
    await gateway?.close();
  });

  async function send(target: FuzzTarget, path: string, body: FuzzBody | undefined): Promise<Answer> {
    const headers: Record<string, string> = { Authorization: `Bearer ${keys[target.caller]}`, Accept: 'application/json, text/event-stream' };
    if (body && body.contentType) headers['Content-Type'] = body.contentType;
    const startedAt = Date.now();
    const response = await fetch(`${gateway.baseUrl}${path}`, { method: target.method, headers, body: body?.text });
    const text = await response.text();
    return { status: response.status, text, elapsedMs: Date.now() - startedAt };
  }

  it.each(TARGETS.map((target) => [target.name, target] as const))('%s', async (_name, target) => {
    const request = fc.tuple(target.path, target.body ?? fc.constant(undefined));
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const answers = await Promise.all(batch.map(([path, body]) => send(target, path, body)));
        answers.forEach((answer, index) => tally.record(target.name, `${target.method} ${batch[index][0]} ${batch[index][1]?.text ?? ''}`, answer));
        const problems = answers
          .map((answer) => problemOf(target.name, answer) ?? (target.answerWithinMs !== undefined && answer.elapsedMs > target.answerWithinMs ? `answered after ${answer.elapsedMs} ms` : undefined))
          .filter((problem) => problem !== undefined);
        // The problem itself in the failure message: the counterexample alone does not say what was wrong with the answer.
        if (problems.length > 0) throw new Error(`${problems.join('; ')}\n${tally.violationsOf(target.name).join('\n')}`.slice(0, 4000));
      }),
      { numRuns: Math.ceil((REQUESTS_PER_ENDPOINT * (target.share ?? 1)) / BATCH), endOnFailure: true },
    );
    expect(tally.violationsOf(target.name)).toEqual([]);
    expect(tally.total(target.name)).toBeGreaterThanOrEqual(REQUESTS_PER_ENDPOINT * (target.share ?? 1));
  }, 600_000);

  it('deactivates no key a deactivate-keys body does not name, whatever its fields hold (null, empty, wrong types)', async () => {
    const team = await createTestAccount(gateway.prisma, { plan: 'enterprise', name: 'fuzz-bystanders' });
    const owner = await addTestMember(gateway.prisma, team.id, { role: 'owner' });
    // The operator's own key and a key of another generation request: no body below names either.
    const operator = await createTestKey(gateway.prisma, team.id, { memberId: owner.id });
    const generated = await fetch(`${gateway.baseUrl}/generate-keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${operator.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ count: 2 }),
    });
    expect(generated.status).toBe(200);
    const bystanders = await gateway.prisma.apiKey.findMany({ where: { accountId: team.id }, select: { id: true } });
    expect(bystanders).toHaveLength(3);
    const emptyish = fc.constantFrom<unknown>(null, undefined, '', [], [null], [''], {}, 0, false, 'null', ' ');
    const field = fc.oneof(emptyish, wrongTypeOrForeignId);
    const body = fc.record({ request_id: field, api_keys: field, key_ids: field }, { requiredKeys: [] });
    let caller = await createTestKey(gateway.prisma, team.id, { memberId: owner.id });
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(body, async (sent) => {
        // Each body starts from every bystander active, so a failure shrinks to the body that caused it.
        await gateway.prisma.apiKey.updateMany({ where: { id: { in: bystanders.map(({ id }) => id) } }, data: { status: 'active', deactivatedAt: null } });
        const response = await fetch(`${gateway.baseUrl}/deactivate-keys`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${caller.apiKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(sent),
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const answer = { status: response.status, text: await response.text(), elapsedMs: 0 };
        expect({ sent, problem: problemOf('deactivate-keys', answer) }).toEqual({ sent, problem: undefined });
        const stillActive = await gateway.prisma.apiKey.count({ where: { id: { in: bystanders.map(({ id }) => id) }, status: 'active' } });
        expect({ sent, stillActive }).toEqual({ sent, stillActive: bystanders.length });
        // A body naming no key retires the calling key itself (as in Tavily): the next body gets a fresh caller.
        if ((await gateway.prisma.apiKey.count({ where: { id: caller.id, status: 'active' } })) === 0) caller = await createTestKey(gateway.prisma, team.id, { memberId: owner.id });
      }),
      // Each field alone as null first (a null must never read as "keys of no generation request"), then the generated ones.
      { numRuns: Math.ceil(REQUESTS_PER_ENDPOINT / 4), examples: [[{ request_id: null }], [{ api_keys: null }], [{ key_ids: null }], [{ request_id: null, api_keys: [] }]] },
    );
    expect(statuses.get(500)).toBeUndefined();
  }, 600_000);

  it('answers the documented limits with clear 400/422s instead of database errors', async () => {
    const cases: Array<[FuzzTarget['caller'], string, string, unknown, number, RegExp]> = [
      ['data', 'POST', '/feedback', { request_id: 'a\u0000b' }, 422, /NUL character or an unpaired UTF-16 surrogate/],
      ['data', 'POST', '/feedback', { session_id: '\ud800' }, 422, /session_id contains/],
      ['owner', 'POST', '/logs', { project_id: 'p\u0000' }, 400, /project_id contains/],
      ['owner', 'POST', '/logs', { project_id: 'p'.repeat(3000) }, 400, /project_id must be shorter than or equal to 512 characters/],
      ['owner', 'POST', '/generate-keys', { name: 'k\u0000' }, 400, /name contains/],
      ['owner', 'POST', '/generate-keys', { key_limit: 2 ** 31 }, 400, /key_limit must not be greater than 100000/],
      ['owner', 'POST', '/generate-keys', { project_id: 'p'.repeat(3000) }, 400, /project_id must be shorter/],
      ['owner', 'POST', '/team/members', { email: 'a\ud800@example.com', role: 'member' }, 400, /email contains/],
      ['owner', 'POST', '/team/members', { email: 'a@example.com', name: 'n\u0000', role: 'member' }, 400, /name contains/],
      ['data', 'POST', '/crawl', { url: 'https://example.com', select_paths: Array.from({ length: 101 }, (_, index) => `/p${index}`) }, 400, /select_paths must contain no more than 100 elements/],
      ['data', 'POST', '/map', { url: 'https://example.com', exclude_domains: ['x'.repeat(1001)] }, 400, /exclude_domains must be shorter than or equal to 1000 characters/],
    ];
    for (const [caller, method, path, body, status, message] of cases) {
      const response = await fetch(`${gateway.baseUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${keys[caller]}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as { detail: { error: string } };
      expect({ path, body, status: response.status, answer }).toEqual({ path, body, status, answer: SPEC_ERROR });
      expect(answer.detail.error).toMatch(message);
    }
    for (const [kind, depth] of [['array', 1500], ['object', 1500], ['array', 65]] as const) {
      const response = await fetch(`${gateway.baseUrl}/search`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${keys.data}`, 'Content-Type': 'application/json' },
        body: `{"query":"x","include_domains":${deeplyNested(depth, kind)}}`,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ detail: { error: 'Invalid request: JSON nested deeper than 64 levels' } });
    }
  });

  /** One raw HTTP/1.1 exchange, for requests fetch refuses to send (oversized or invalid headers). */
  function rawExchange(request: string): Promise<string> {
    const { port } = new URL(gateway.baseUrl);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.on('error', reject);
    });
  }

  function responseParts(raw: string): { status: number; body: string } {
    const [head, body] = raw.split('\r\n\r\n');
    return { status: Number(head.split(' ')[1]), body };
  }

  it("answers Node's own refusals (431 headers too large, 400 a NUL in a header) in the spec shape", async () => {
    const oversized = responseParts(await rawExchange(`GET /usage HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(oversized.status).toBe(431);
    expect(JSON.parse(oversized.body)).toEqual({ detail: { error: 'Request headers are too large.' } });
    const nulHeader = responseParts(await rawExchange(`GET /usage HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${keys.data}\r\nX-Project-ID: a\u0000b\r\n\r\n`));
    expect(nulHeader.status).toBe(400);
    expect(JSON.parse(nulHeader.body)).toEqual({ detail: { error: 'Malformed HTTP request.' } });
    const garbage = responseParts(await rawExchange('NOT HTTP AT ALL\r\n\r\n'));
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body)).toEqual(SPEC_ERROR);
  });
});
