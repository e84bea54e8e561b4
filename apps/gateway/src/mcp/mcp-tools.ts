import { ExtractRequestDto, SearchRequestDto } from '@sift/api-contracts';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { z } from 'zod';

/**
 * The tools' argument schemas as MCP clients see them (a subset of the HTTP bodies, same snake_case names). The
 * arguments are then validated again with the HTTP DTOs, so a tool call obeys exactly the same rules as POST /search
 * and POST /extract.
 */
export const searchToolArguments = {
  query: z.string().min(1).describe('What to search for'),
  search_depth: z.enum(['basic', 'advanced', 'fast', 'ultra-fast']).optional().describe('basic (default), advanced (2 credits), fast, ultra-fast'),
  topic: z.enum(['general', 'news', 'finance']).optional(),
  time_range: z.enum(['day', 'week', 'month', 'year', 'd', 'w', 'm', 'y']).optional(),
  max_results: z.number().int().min(0).max(20).optional(),
  include_domains: z.array(z.string()).max(300).optional(),
  exclude_domains: z.array(z.string()).max(150).optional(),
  include_answer: z.union([z.boolean(), z.enum(['basic', 'advanced'])]).optional(),
  include_raw_content: z.union([z.boolean(), z.enum(['markdown', 'text'])]).optional(),
  chunks_per_source: z.number().int().min(1).max(5).optional(),
  safe_search: z.boolean().optional().describe('Drop adult and unsafe content (not with fast or ultra-fast)'),
};

export const extractToolArguments = {
  urls: z.array(z.string()).min(1).max(20).describe('URLs to extract (at most 20)'),
  extract_depth: z.enum(['basic', 'advanced']).optional(),
  format: z.enum(['markdown', 'text']).optional(),
  query: z.string().optional().describe('Rerank content chunks by this intent'),
  chunks_per_source: z.number().int().min(1).max(5).optional(),
};

export class ToolArgumentError extends Error {}

export async function toDto<Dto extends object>(type: new () => Dto, input: Record<string, unknown>): Promise<Dto> {
  const dto = plainToInstance(type, input);
  const errors = await validate(dto, { whitelist: true });
  if (errors.length) {
    throw new ToolArgumentError(errors.flatMap((error) => Object.values(error.constraints ?? {})).join('; '));
  }
  return dto;
}

export const SEARCH_DTO = SearchRequestDto;
export const EXTRACT_DTO = ExtractRequestDto;
