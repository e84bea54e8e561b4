import { Transform } from 'class-transformer';
import { ValidateIf } from 'class-validator';

/**
 * The field may be left out (it is then not validated), but `null` is a value like any other and must pass the
 * field's checks, so it is refused (400; 422 on feedback). class-validator's @IsOptional() skips `null` as well,
 * which hands the service a value no type of the field allows: a `request_id` of `null` reaches a repository as
 * `IS NULL`. A field whose `null` means its documented default takes @NullAsDefault instead, and one the spec
 * declares nullable (crawl's and map's path and domain filters) keeps @IsOptional().
 */
export function IsOptionalNotNull(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}

/**
 * Reads `null` as the field left out, for the few optional fields a Tavily client fills from an LLM's tool call
 * without looking (@langchain/tavily's search `time_range`, extract `query`, crawl and map `instructions`, research
 * `output_schema`), where a model writes `null` for "not given". The service never sees the `null`: with
 * @IsOptionalNotNull() the field is then simply absent.
 */
export function NullAsOmitted(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (value === null ? undefined : value));
}
