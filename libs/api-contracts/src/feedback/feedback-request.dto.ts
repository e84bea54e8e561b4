import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsString, MaxLength, ValidateNested } from 'class-validator';
import { IsOptionalNotNull } from '../common/is-optional-not-null.decorator';
import { FEEDBACK_LIMITS } from './feedback.constants';
import { IsScoreValue } from './score-value.validator';

const SCORE_VALUE_SCHEMA: ApiPropertyOptions = {
  oneOf: [{ type: 'number' }, { type: 'string', maxLength: FEEDBACK_LIMITS.scoreValueCharacters }],
};

export class LabeledScoreDto {
  @ApiProperty({ description: 'What the score measures.', maxLength: FEEDBACK_LIMITS.labelCharacters, example: 'relevance' })
  @IsString()
  @MaxLength(FEEDBACK_LIMITS.labelCharacters)
  label!: string;

  @ApiProperty({ ...SCORE_VALUE_SCHEMA, description: 'The score: a number or a short label.', example: 4 })
  @IsDefined()
  @IsScoreValue()
  value!: number | string;
}

/** One element of urls_scores. Needing id or url is a 400 checked by the service (see feedbackTargetMissing). */
export class UrlScoreDto {
  @ApiPropertyOptional({ description: 'A search result id.', maxLength: FEEDBACK_LIMITS.idCharacters })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(FEEDBACK_LIMITS.idCharacters)
  id?: string;

  @ApiPropertyOptional({ description: 'A result URL; alternative to id.', maxLength: FEEDBACK_LIMITS.urlCharacters })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(FEEDBACK_LIMITS.urlCharacters)
  url?: string;

  @ApiPropertyOptional({ ...SCORE_VALUE_SCHEMA, description: "This result's usefulness for the task." })
  @IsOptionalNotNull()
  @IsScoreValue()
  agent_score?: number | string;

  @ApiPropertyOptional({ type: [LabeledScoreDto], description: 'Further scores of this result, each with a label.', maxItems: FEEDBACK_LIMITS.urlScoreScores })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(FEEDBACK_LIMITS.urlScoreScores)
  @ValidateNested({ each: true })
  @Type(() => LabeledScoreDto)
  scores?: LabeledScoreDto[];

  @ApiPropertyOptional({ description: 'Free text about this result.', maxLength: FEEDBACK_LIMITS.urlScoreCommentCharacters })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(FEEDBACK_LIMITS.urlScoreCommentCharacters)
  comment?: string;
}

/**
 * Body of POST /feedback (beta, free). Limit violations are 422s. The rule "request_id or session_id is
 * required" is a 400 with its own message, so it is not a validator here: the service calls
 * `feedbackTargetMissing` after validation.
 */
export class FeedbackRequestDto {
  @ApiPropertyOptional({ description: 'request_id of a search response; feedback applies to that request.', maxLength: FEEDBACK_LIMITS.requestIdCharacters })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(FEEDBACK_LIMITS.requestIdCharacters)
  request_id?: string;

  @ApiPropertyOptional({ description: 'The X-Session-Id value; without request_id, feedback applies to the whole session.', maxLength: FEEDBACK_LIMITS.sessionIdCharacters })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(FEEDBACK_LIMITS.sessionIdCharacters)
  session_id?: string;

  @ApiPropertyOptional({ ...SCORE_VALUE_SCHEMA, description: 'Overall usefulness for the task.' })
  @IsOptionalNotNull()
  @IsScoreValue()
  agent_score?: number | string;

  @ApiPropertyOptional({ ...SCORE_VALUE_SCHEMA, description: 'End-user feedback.' })
  @IsOptionalNotNull()
  @IsScoreValue()
  human_score?: number | string;

  @ApiPropertyOptional({ type: [LabeledScoreDto], description: 'Further overall scores, each with a label.', maxItems: FEEDBACK_LIMITS.extraScores })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(FEEDBACK_LIMITS.extraScores)
  @ValidateNested({ each: true })
  @Type(() => LabeledScoreDto)
  extra_scores?: LabeledScoreDto[];

  @ApiPropertyOptional({ description: 'Free text about the results.', maxLength: FEEDBACK_LIMITS.commentCharacters })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(FEEDBACK_LIMITS.commentCharacters)
  comment?: string;

  @ApiPropertyOptional({ description: 'The final answer produced from the results.', maxLength: FEEDBACK_LIMITS.responseDeliveredCharacters })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(FEEDBACK_LIMITS.responseDeliveredCharacters)
  response_delivered?: string;

  @ApiPropertyOptional({ type: [String], maxItems: FEEDBACK_LIMITS.usedIds, description: 'Result ids used; alternative to used_urls.' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(FEEDBACK_LIMITS.usedIds)
  @IsString({ each: true })
  @MaxLength(FEEDBACK_LIMITS.idCharacters, { each: true })
  used_ids?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: FEEDBACK_LIMITS.usedUrls, description: 'Result URLs used; alternative to used_ids.' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(FEEDBACK_LIMITS.usedUrls)
  @IsString({ each: true })
  @MaxLength(FEEDBACK_LIMITS.urlCharacters, { each: true })
  used_urls?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: FEEDBACK_LIMITS.usedCitations, description: 'Quoted snippets.' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(FEEDBACK_LIMITS.usedCitations)
  @IsString({ each: true })
  @MaxLength(FEEDBACK_LIMITS.citationCharacters, { each: true })
  used_citations?: string[];

  @ApiPropertyOptional({ type: [UrlScoreDto], description: 'Feedback per result, each naming it by id or url.', maxItems: FEEDBACK_LIMITS.urlsScores })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(FEEDBACK_LIMITS.urlsScores)
  @ValidateNested({ each: true })
  @Type(() => UrlScoreDto)
  urls_scores?: UrlScoreDto[];
}

/** The shape Swagger UI fills in; request_id must be one of your own earlier responses for the call to succeed. */
export const FEEDBACK_REQUEST_EXAMPLE = {
  request_id: '123e4567-e89b-42d3-a456-426614174000',
  agent_score: 4,
  comment: 'The second result answered the question.',
} satisfies Partial<FeedbackRequestDto>;
