import { Body, Controller, Post } from '@nestjs/common';
import { FEEDBACK_REQUEST_EXAMPLE, FeedbackRequestDto, FeedbackResponseDto } from '@sift/api-contracts';
import { Endpoint } from '../http/endpoint.decorator';
import { Ctx, RequestContext } from '../caller/request-context';
import { FeedbackService } from './feedback.service';

@Controller()
export class FeedbackController {
  constructor(private readonly feedbackService: FeedbackService) {}

  @Post('feedback')
  @Endpoint({
    tag: 'feedback',
    operationId: 'feedback',
    summary: 'Submit feedback on results (beta, free)',
    description: 'At least one of request_id and session_id. Body at most 262144 bytes (413 above, checked before parsing); a field over its limit is 422.',
    response: FeedbackResponseDto,
    body: { type: FeedbackRequestDto, example: FEEDBACK_REQUEST_EXAMPLE },
    headers: ['X-Session-Id'],
    errors: { 400: 'Either session_id or request_id is required', 413: 'Body exceeds 262144 bytes', 422: 'Validation error in request body', 500: 'Error when processing feedback' },
  })
  submit(@Ctx() context: RequestContext, @Body() body: FeedbackRequestDto): Promise<FeedbackResponseDto> {
    return this.feedbackService.submit(context, body);
  }
}
