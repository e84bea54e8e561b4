import { FeedbackRepository } from '@sift/persistence';
import { callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface ErrorBody {
  detail: { error: string };
}

describe('POST /feedback over HTTP: every row of the spec error table (real Postgres)', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });

  afterAll(async () => {
    await gateway.close();
  });

  async function givenKey(options: { zeroDataRetention?: boolean } = {}) {
    const account = await createTestAccount(gateway.prisma, { plan: 'researcher', name: 'feedback', ...options });
    return { accountId: account.id, ...(await createTestKey(gateway.prisma, account.id)) };
  }

  const submit = (apiKey: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
    callGateway(gateway.baseUrl, 'POST', '/feedback', { apiKey, body, headers });

  it('200: stores the submission and answers success, feedback_id and response_time in seconds', async () => {
    const { apiKey, accountId } = await givenKey();
    const answer = await submit(apiKey, {
      request_id: 'req-123',
      agent_score: 4,
      human_score: 'useful',
      extra_scores: [{ label: 'freshness', value: 3 }],
      comment: 'good results',
      used_ids: ['a', 'b'],
      urls_scores: [{ url: 'https://example.com/a', agent_score: 5, comment: 'cited' }],
      // Unknown fields are accepted and ignored.
      client_version: '1.2.3',
      nested_extra: { anything: true },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, feedback_id: expect.stringMatching(UUID), response_time: expect.any(Number) });
    const responseTime = answer.body.response_time as number;
    expect(responseTime).toBeGreaterThan(0);
    expect(responseTime).toBeLessThan(10);
    const stored = await gateway.app.get(FeedbackRepository).findById(accountId, answer.body.feedback_id as string);
    expect(stored).toMatchObject({ requestId: 'req-123', agentScore: '4', humanScore: 'useful', zeroDataRetention: false });
    expect(stored?.payload).toMatchObject({ comment: 'good results', used_ids: ['a', 'b'] });
    expect(stored?.payload).not.toHaveProperty('client_version');
    expect(stored?.payload).not.toHaveProperty('nested_extra');
  });

  it('200: a fresh feedback_id per submission, and session_id alone is enough', async () => {
    const { apiKey } = await givenKey();
    const first = await submit(apiKey, { session_id: 'session-1' }, { 'X-Session-Id': 'session-1' });
    const second = await submit(apiKey, { session_id: 'session-1' });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.body.feedback_id).not.toBe(second.body.feedback_id);
  });

  it('200 under zero data retention: scores and ids are kept, free text and URLs are not stored', async () => {
    const { apiKey, accountId } = await givenKey({ zeroDataRetention: true });
    const answer = await submit(apiKey, {
      request_id: 'req-zdr',
      agent_score: 2,
      comment: 'secret comment',
      response_delivered: 'the final answer',
      used_urls: ['https://private.example/'],
      used_citations: ['a quoted snippet'],
      urls_scores: [{ id: 'r1', url: 'https://private.example/page', agent_score: 1, comment: 'private' }],
    });
    expect(answer.status).toBe(200);
    const stored = await gateway.app.get(FeedbackRepository).findById(accountId, answer.body.feedback_id as string);
    expect(stored?.zeroDataRetention).toBe(true);
    const text = JSON.stringify(stored?.payload);
    for (const secret of ['secret comment', 'the final answer', 'private.example', 'a quoted snippet', 'private']) expect(text).not.toContain(secret);
    expect(stored?.payload).toMatchObject({ request_id: 'req-zdr', agent_score: 2, urls_scores: [{ id: 'r1', agent_score: 1 }] });
  });

  describe('400: either session_id or request_id is required', () => {
    it.each([
      ['neither session_id nor request_id', { agent_score: 3, comment: 'no target' }],
      ['an empty body', {}],
      ['a urls_scores item with neither id nor url', { request_id: 'req-1', urls_scores: [{ agent_score: 3 }] }],
    ])('%s', async (_case, body) => {
      const { apiKey } = await givenKey();
      const answer = await submit(apiKey, body);
      expect(answer.status).toBe(400);
      expect((answer.body as unknown as ErrorBody).detail.error).toMatch(/either session_id or request_id is required/i);
    });
  });

  it('401: unauthorized, missing or invalid API key', async () => {
    for (const apiKey of [undefined, `sift-dev-${'C'.repeat(43)}`]) {
      const answer = await submit(apiKey, { session_id: 's' });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ detail: { error: 'Unauthorized: missing or invalid API key.' } });
    }
  });

  it('413: a body over 262144 bytes, checked before parsing; a body of exactly 262144 bytes is accepted', async () => {
    const { apiKey } = await givenKey();
    const envelope = JSON.stringify({ session_id: 's', ignored_padding: '' });
    const exactly = envelope.replace('"ignored_padding":""', `"ignored_padding":"${'x'.repeat(262144 - envelope.length)}"`);
    expect(Buffer.byteLength(exactly)).toBe(262144);
    expect((await submit(apiKey, exactly)).status).toBe(200);
    const over = await submit(apiKey, exactly.replace('"x', '"xx'));
    expect(over.status).toBe(413);
    expect((over.body as unknown as ErrorBody).detail.error).toMatch(/exceeds 262144 bytes/);
    // Not JSON at all but oversized: still 413, since the limit is checked while reading.
    const notJson = await submit(apiKey, 'y'.repeat(300_000));
    expect(notJson.status).toBe(413);
  });

  describe('422: validation error in request body', () => {
    it.each([
      ['comment over 10000 characters', { comment: 'c'.repeat(10_001) }],
      ['response_delivered over 50000 characters', { response_delivered: 'r'.repeat(50_001) }],
      ['request_id over 200 characters', { request_id: 'i'.repeat(201), session_id: undefined }],
      ['used_ids over 100 items', { used_ids: Array.from({ length: 101 }, (_, index) => `id-${index}`) }],
      ['a used_urls entry over 2000 characters', { used_urls: [`https://example.com/${'u'.repeat(2000)}`] }],
      ['extra_scores over 50 items', { extra_scores: Array.from({ length: 51 }, (_, index) => ({ label: `l${index}`, value: 1 })) }],
      ['a labeled score without value', { extra_scores: [{ label: 'no value' }] }],
      ['a score string over 64 characters', { agent_score: 's'.repeat(65) }],
      ['a score that is neither number nor string', { human_score: { nested: true } }],
      ['urls_scores over 100 items', { urls_scores: Array.from({ length: 101 }, (_, index) => ({ id: `r${index}` })) }],
      ['a urls_scores item with over 20 scores', { urls_scores: [{ id: 'r', scores: Array.from({ length: 21 }, () => ({ label: 'l', value: 1 })) }] }],
      ['used_ids that is not a list', { used_ids: 'not-a-list' }],
    ])('%s', async (_case, fields) => {
      const { apiKey } = await givenKey();
      const answer = await submit(apiKey, { session_id: 'session', ...fields });
      expect(answer.status).toBe(422);
      expect((answer.body as unknown as ErrorBody).detail.error).toMatch(/^Validation error in request body/);
    });
  });

  it('500: an internal failure is "error when processing feedback" and nothing is stored', async () => {
    const { apiKey, accountId } = await givenKey();
    const repository = gateway.app.get(FeedbackRepository);
    // A storage failure the API cannot foresee (input Postgres would refuse is a 422 before this point).
    const failure = jest.spyOn(repository, 'create').mockRejectedValueOnce(new Error('could not write block: No space left on device'));
    try {
      const answer = await submit(apiKey, { session_id: 'session', comment: 'a comment' });
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ detail: { error: 'Error when processing feedback.' } });
    } finally {
      failure.mockRestore();
    }
    expect(await repository.list(accountId)).toEqual([]);
  });

  it('422: NUL characters and unpaired surrogates never reach Postgres, and nothing is stored', async () => {
    const { apiKey, accountId } = await givenKey();
    for (const body of [{ session_id: 'session', comment: 'before\u0000after' }, { session_id: '\ud800' }, { session_id: 's', urls_scores: [{ id: 'r', comment: 'x\udc00' }] }]) {
      const answer = await submit(apiKey, body);
      expect(answer.status).toBe(422);
      expect((answer.body as unknown as ErrorBody).detail.error).toMatch(/^Validation error in request body: .* contains a NUL character or an unpaired UTF-16 surrogate$/);
    }
    expect(await gateway.app.get(FeedbackRepository).list(accountId)).toEqual([]);
  });

  it('is free: no credits are charged', async () => {
    const { apiKey, accountId } = await givenKey();
    expect((await submit(apiKey, { session_id: 'free' })).status).toBe(200);
    expect(await gateway.prisma.creditLedger.count({ where: { accountId } })).toBe(0);
  });
});
