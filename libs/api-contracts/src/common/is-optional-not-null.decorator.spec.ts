import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, IS_OPTIONAL, validate, ValidationTypes } from 'class-validator';
import { CrawlRequestDto } from '../crawl/crawl-request.dto';
import { ExtractRequestDto } from '../extract/extract-request.dto';
import { FeedbackRequestDto, LabeledScoreDto, UrlScoreDto } from '../feedback/feedback-request.dto';
import { DeactivateKeysRequestDto } from '../keys/deactivate-keys-request.dto';
import { GenerateKeysRequestDto } from '../keys/generate-keys-request.dto';
import { LogsRequestDto } from '../logs/logs-request.dto';
import { MapRequestDto } from '../map/map-request.dto';
import { ResearchRequestDto } from '../research/research-request.dto';
import { SearchRequestDto } from '../search/search-request.dto';
import { ChangeRoleRequestDto } from '../team/change-role-request.dto';
import { InviteMemberRequestDto } from '../team/invite-member-request.dto';

type RequestBody = new () => object;

/** Every request body of @sift/api-contracts, nested ones included. */
const REQUEST_BODIES: readonly RequestBody[] = [
  SearchRequestDto,
  ExtractRequestDto,
  MapRequestDto,
  CrawlRequestDto,
  ResearchRequestDto,
  FeedbackRequestDto,
  UrlScoreDto,
  LabeledScoreDto,
  LogsRequestDto,
  GenerateKeysRequestDto,
  DeactivateKeysRequestDto,
  InviteMemberRequestDto,
  ChangeRoleRequestDto,
];

/**
 * The optional fields that take `null` as "not given": crawl's and map's filters, whose default the spec gives as
 * null, and the starting url, whose absence (null included) the spec answers with its own 400.
 */
const NULLABLE_TRAVERSAL_FIELDS = ['exclude_domains', 'exclude_paths', 'select_domains', 'select_paths', 'url'];
const NULL_ACCEPTED: ReadonlyMap<RequestBody, readonly string[]> = new Map<RequestBody, readonly string[]>([
  [MapRequestDto, NULLABLE_TRAVERSAL_FIELDS],
  [CrawlRequestDto, NULLABLE_TRAVERSAL_FIELDS],
]);

/** The optional fields Tavily clients fill from an LLM's tool call, whose null is read as the field left out. */
const NULL_OMITTED: ReadonlyMap<RequestBody, readonly string[]> = new Map<RequestBody, readonly string[]>([
  [SearchRequestDto, ['time_range']],
  [ExtractRequestDto, ['query']],
  [MapRequestDto, ['instructions']],
  [CrawlRequestDto, ['instructions']],
  [ResearchRequestDto, ['output_schema']],
]);

function conditionalFields(dto: RequestBody): { skippingNull: string[]; validatingNull: string[] } {
  const conditions = getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', true, false)
    .filter((metadata) => metadata.type === ValidationTypes.CONDITIONAL_VALIDATION);
  const skippingNull = [...new Set(conditions.filter((metadata) => metadata.name === IS_OPTIONAL).map((metadata) => metadata.propertyName))];
  const validatingNull = [...new Set(conditions.filter((metadata) => metadata.name !== IS_OPTIONAL).map((metadata) => metadata.propertyName))];
  return { skippingNull: skippingNull.sort(), validatingNull: validatingNull.sort() };
}

describe('optional request fields and null', () => {
  it.each(REQUEST_BODIES.map((dto) => [dto.name, dto] as const))('%s lets null past validation only where the spec declares it', (_name, dto) => {
    expect(conditionalFields(dto).skippingNull).toEqual(NULL_ACCEPTED.get(dto) ?? []);
  });

  it.each(REQUEST_BODIES.map((dto) => [dto.name, dto] as const))(
    '%s refuses null in every other optional field (or reads it as left out), and still lets it be left out',
    async (_name, dto) => {
      const { validatingNull } = conditionalFields(dto);
      const omitted = NULL_OMITTED.get(dto) ?? [];
      for (const field of validatingNull) {
        const parsed = plainToInstance(dto, { [field]: null }) as Record<string, unknown>;
        const withNull = await validate(parsed, { whitelist: true });
        const outcome = withNull.some((error) => error.property === field) ? 'refused' : parsed[field] === undefined ? 'omitted' : 'passed as null';
        expect({ field, outcome }).toEqual({ field, outcome: omitted.includes(field) ? 'omitted' : 'refused' });
        const leftOut = await validate(plainToInstance(dto, {}), { whitelist: true });
        expect({ field, refused: leftOut.some((error) => error.property === field) }).toEqual({ field, refused: false });
      }
    },
  );

  it('refuses null in every optional key-management field (a null request_id would match keys by IS NULL)', () => {
    expect(conditionalFields(DeactivateKeysRequestDto).validatingNull).toEqual(['api_keys', 'key_ids', 'request_id']);
    expect(conditionalFields(GenerateKeysRequestDto).validatingNull).toEqual(['key_limit', 'member_id', 'name', 'project_id', 'ttl_hours']);
  });
});
