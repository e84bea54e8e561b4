import type { FeedbackRequestDto } from './feedback-request.dto';

/**
 * True when feedback cannot be attached to anything: neither request_id nor session_id is given, or a
 * urls_scores item has neither id nor url. The spec answers both with 400 (not the 422 of a validation
 * error), which is why this is a helper for the service instead of a class-validator constraint.
 */
export function feedbackTargetMissing(dto: Pick<FeedbackRequestDto, 'request_id' | 'session_id' | 'urls_scores'>): boolean {
  if (!dto.request_id && !dto.session_id) return true;
  return (dto.urls_scores ?? []).some((item) => !item.id && !item.url);
}
