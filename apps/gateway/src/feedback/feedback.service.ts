import { Injectable } from '@nestjs/common';
import { FeedbackRequestDto, FeedbackResponseDto, feedbackTargetMissing } from '@sift/api-contracts';
import { FeedbackRepository } from '@sift/persistence';
import { ApiError } from '../http/api-error';
import { keyedCaller, RequestContext, responseTimeSeconds } from '../caller/request-context';

@Injectable()
export class FeedbackService {
  constructor(private readonly feedback: FeedbackRepository) {}

  async submit(context: RequestContext, body: FeedbackRequestDto): Promise<FeedbackResponseDto> {
    const caller = keyedCaller(context);
    if (feedbackTargetMissing(body)) {
      throw new ApiError(400, 'Either session_id or request_id is required (and every urls_scores item needs an id or a url).');
    }
    const zeroDataRetention = caller.zeroDataRetention;
    const stored = await this.feedback.create(caller.accountId, {
      apiKeyId: caller.apiKeyId,
      requestId: body.request_id ?? null,
      sessionId: body.session_id ?? context.sessionId ?? null,
      agentScore: scoreText(body.agent_score),
      humanScore: scoreText(body.human_score),
      payload: (zeroDataRetention ? withoutFreeText(body) : { ...body }) as never,
      zeroDataRetention,
    });
    return { success: true, feedback_id: stored.id, response_time: responseTimeSeconds(context) };
  }
}

function scoreText(score: unknown): string | null {
  return score === undefined || score === null ? null : String(score);
}

/** Zero data retention: keep the scores and ids, drop every free-text field and URL. */
function withoutFreeText(body: FeedbackRequestDto): Record<string, unknown> {
  return {
    request_id: body.request_id,
    session_id: body.session_id,
    agent_score: body.agent_score,
    human_score: body.human_score,
    extra_scores: body.extra_scores,
    used_ids: body.used_ids,
    urls_scores: body.urls_scores?.map((item) => ({ id: item.id, agent_score: item.agent_score, scores: item.scores })),
  };
}
