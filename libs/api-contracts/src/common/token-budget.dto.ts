import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { IsOptionalNotNull } from './is-optional-not-null.decorator';
import { stackedDecorators } from './stacked-decorators';

/** Bounds of `max_tokens`: below 50 a result's share holds little more than the marker; above, no model's context. */
export const MAX_TOKENS_LIMITS = { min: 50, max: 1_000_000 } as const;

/** Where text was cut to fit `max_tokens`. */
export const TOKEN_BUDGET_CUT_MARKER = ' [… cut to fit max_tokens]';

/**
 * The optional `max_tokens` request field, the same on every endpoint that returns page text: the text of the
 * response is cut to fit it, counted by the o200k_base tokenizer (docs/search-filters.md, "Token budgets"). `cuts`
 * names the text that is cut (the usual description is written around it), or gives the whole description of a field
 * that fits its answer otherwise.
 */
export function MaxTokensField(cuts: string | { description: string }): PropertyDecorator {
  // Written as a stack above the property: Max on top, the documentation at the bottom.
  return stackedDecorators(
    Max(MAX_TOKENS_LIMITS.max),
    Min(MAX_TOKENS_LIMITS.min),
    IsInt(),
    IsOptionalNotNull(),
    ApiPropertyOptional({
      type: 'integer',
      description:
        typeof cuts === 'object'
          ? cuts.description
          : `Cut ${cuts} to fit this many tokens (o200k_base, the GPT-4o tokenizer), at sentence boundaries, earlier results ` +
            `keeping more; cut text ends with "${TOKEN_BUDGET_CUT_MARKER.trim()}" and token_budget reports the count. Absent: nothing is cut (an MCP tool call gets its tool's default).`,
      minimum: MAX_TOKENS_LIMITS.min,
      maximum: MAX_TOKENS_LIMITS.max,
      example: 8000,
    }),
  );
}

/** The `token_budget` object of a response, present only when the request set `max_tokens`. */
export class TokenBudgetDto {
  @ApiProperty({ description: 'The max_tokens of the request.', example: 8000 })
  max_tokens!: number;

  @ApiProperty({ description: 'Tokens of the text returned (markers included), by the same tokenizer; at most max_tokens.', example: 7912 })
  returned_tokens!: number;

  @ApiProperty({ description: 'Whether any text was cut to fit.' })
  cut!: boolean;
}
