import { plainToInstance } from 'class-transformer';
import { ValidationError, validate } from 'class-validator';
import { FeedbackRequestDto } from './feedback-request.dto';
import { feedbackTargetMissing } from './feedback-target.validator';

async function parse(body: object): Promise<{ dto: FeedbackRequestDto; invalid: string[] }> {
  const dto = plainToInstance(FeedbackRequestDto, body);
  const errors = await validate(dto, { whitelist: true });
  return { dto, invalid: flatten(errors) };
}

/** Dotted paths of every failing property, nested ones included (urls_scores.0.scores.1.label). */
function flatten(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = `${prefix}${error.property}`;
    return error.children?.length ? flatten(error.children, `${path}.`) : [path];
  });
}

const text = (length: number) => 'x'.repeat(length);
const list = (count: number, length = 10) => Array.from({ length: count }, () => text(length));

describe('FeedbackRequestDto', () => {
  it('accepts a full submission as @tavily/core sends it', async () => {
    const { invalid } = await parse({
      request_id: 'req_123',
      session_id: 'session-abc',
      agent_score: 4,
      human_score: 'thumbs_up',
      extra_scores: [{ label: 'relevance', value: 0.9 }],
      comment: 'useful',
      response_delivered: 'The answer is 42.',
      used_ids: ['r1', 'r2'],
      used_urls: ['https://example.com/a'],
      used_citations: ['"quoted snippet"'],
      urls_scores: [{ id: 'r1', agent_score: 5, scores: [{ label: 'freshness', value: 'high' }], comment: 'best' }, { url: 'https://example.com/b' }],
    });
    expect(invalid).toEqual([]);
  });

  it('accepts a 64-character string score and rejects a 65-character one', async () => {
    expect((await parse({ request_id: 'r', agent_score: text(64) })).invalid).toEqual([]);
    expect((await parse({ request_id: 'r', agent_score: text(65) })).invalid).toEqual(['agent_score']);
    expect((await parse({ request_id: 'r', human_score: text(65) })).invalid).toEqual(['human_score']);
  });

  it('rejects scores that are neither a number nor a string', async () => {
    expect((await parse({ request_id: 'r', agent_score: true })).invalid).toEqual(['agent_score']);
    expect((await parse({ request_id: 'r', agent_score: { stars: 5 } })).invalid).toEqual(['agent_score']);
  });

  it('caps used_ids at 100 items of 200 characters', async () => {
    expect((await parse({ request_id: 'r', used_ids: list(100, 200) })).invalid).toEqual([]);
    expect((await parse({ request_id: 'r', used_ids: list(101) })).invalid).toEqual(['used_ids']);
    expect((await parse({ request_id: 'r', used_ids: [text(201)] })).invalid).toEqual(['used_ids']);
  });

  it('caps used_urls and used_citations at 100 items of 2000 characters', async () => {
    expect((await parse({ request_id: 'r', used_urls: list(100, 2000), used_citations: list(100, 2000) })).invalid).toEqual([]);
    expect((await parse({ request_id: 'r', used_urls: list(101) })).invalid).toEqual(['used_urls']);
    expect((await parse({ request_id: 'r', used_citations: [text(2001)] })).invalid).toEqual(['used_citations']);
  });

  it.each([
    ['request_id', 200],
    ['session_id', 200],
    ['comment', 10000],
    ['response_delivered', 50000],
  ])('limits %s to %i characters', async (field, max) => {
    expect((await parse({ request_id: 'r', session_id: 's', [field]: text(max) })).invalid).toEqual([]);
    expect((await parse({ request_id: 'r', session_id: 's', [field]: text(max + 1) })).invalid).toEqual([field]);
  });

  it('caps extra_scores at 50 and checks each labeled score', async () => {
    const scores = (count: number) => Array.from({ length: count }, (_, index) => ({ label: `l${index}`, value: index }));
    expect((await parse({ request_id: 'r', extra_scores: scores(50) })).invalid).toEqual([]);
    expect((await parse({ request_id: 'r', extra_scores: scores(51) })).invalid).toEqual(['extra_scores']);
    expect((await parse({ request_id: 'r', extra_scores: [{ label: text(65), value: 1 }] })).invalid).toEqual(['extra_scores.0.label']);
    expect((await parse({ request_id: 'r', extra_scores: [{ label: 'missing value' }] })).invalid).toEqual(['extra_scores.0.value']);
    expect((await parse({ request_id: 'r', extra_scores: [{ value: 1 }] })).invalid).toEqual(['extra_scores.0.label']);
  });

  it('checks urls_scores items: 100 items, id 200, url 2000, scores 20, comment 2000', async () => {
    const items = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `r${index}` }));
    expect((await parse({ request_id: 'r', urls_scores: items(100) })).invalid).toEqual([]);
    expect((await parse({ request_id: 'r', urls_scores: items(101) })).invalid).toEqual(['urls_scores']);
    expect((await parse({ request_id: 'r', urls_scores: [{ id: text(201) }] })).invalid).toEqual(['urls_scores.0.id']);
    expect((await parse({ request_id: 'r', urls_scores: [{ url: text(2001) }] })).invalid).toEqual(['urls_scores.0.url']);
    expect((await parse({ request_id: 'r', urls_scores: [{ id: 'a', comment: text(2001) }] })).invalid).toEqual(['urls_scores.0.comment']);
    const scores = Array.from({ length: 21 }, () => ({ label: 'l', value: 1 }));
    expect((await parse({ request_id: 'r', urls_scores: [{ id: 'a', scores }] })).invalid).toEqual(['urls_scores.0.scores']);
    expect((await parse({ request_id: 'r', urls_scores: [{ id: 'a', agent_score: text(65) }] })).invalid).toEqual(['urls_scores.0.agent_score']);
  });

  it('leaves the request_id-or-session_id rule to feedbackTargetMissing (a 400, not a 422)', async () => {
    const { dto, invalid } = await parse({ agent_score: 3 });
    expect(invalid).toEqual([]);
    expect(feedbackTargetMissing(dto)).toBe(true);
    expect(feedbackTargetMissing({ request_id: 'r' })).toBe(false);
    expect(feedbackTargetMissing({ session_id: 's' })).toBe(false);
    expect(feedbackTargetMissing({ request_id: '' })).toBe(true);
  });

  it('reports a urls_scores item with neither id nor url through feedbackTargetMissing', async () => {
    const { dto, invalid } = await parse({ request_id: 'r', urls_scores: [{ id: 'a' }, { agent_score: 1 }] });
    expect(invalid).toEqual([]);
    expect(feedbackTargetMissing(dto)).toBe(true);
  });
});
