import { Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, ReferenceObject, SchemaObject, SwaggerModule } from '@nestjs/swagger';

/** A JSON Schema as MCP's `inputSchema` carries it. */
export type JsonSchema = Record<string, unknown>;

/** Holds no provider: the application @nestjs/swagger needs to read model metadata, and nothing else. */
@Module({})
class SchemaReaderModule {}

/**
 * The JSON Schemas of request DTOs, read from the same Swagger metadata that documents the REST bodies in
 * /openapi.json (descriptions, enums, bounds, defaults all come from the DTO and its limit constants). @nestjs/swagger
 * explores models only inside an application, so an empty preview application (no providers, no connections) hosts
 * the exploration.
 */
export async function readDtoSchemas(dtos: ReadonlyArray<Type<object>>): Promise<Map<Type<object>, JsonSchema>> {
  // No `logger` option: any value, `false` included, replaces Nest's process-wide logger, which silenced the
  // gateway's own log lines from here on. Its few start-up lines are the price.
  const app = await NestFactory.create(SchemaReaderModule, { preview: true });
  try {
    const document = SwaggerModule.createDocument(app, new DocumentBuilder().build(), { extraModels: [...dtos] });
    const schemas = document.components?.schemas ?? {};
    return new Map(dtos.map((dto) => [dto, toJsonSchema({ $ref: `#/components/schemas/${dto.name}` }, schemas as Record<string, SchemaObject>, [])]));
  } finally {
    await app.close();
  }
}

const SCHEMA_LISTS = ['oneOf', 'anyOf', 'allOf'] as const;

/**
 * An OpenAPI 3.0 schema as plain JSON Schema: references inlined (some MCP clients resolve no `$ref`), `nullable`
 * as a `null` type, `example` as `examples`.
 */
function toJsonSchema(schema: SchemaObject | ReferenceObject, schemas: Record<string, SchemaObject>, seen: string[]): JsonSchema {
  if ('$ref' in schema) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    if (seen.includes(name) || !schemas[name]) throw new Error(`cannot inline schema ${name}`);
    return toJsonSchema(schemas[name], schemas, [...seen, name]);
  }
  const { nullable, example, properties, items, additionalProperties, ...rest } = schema;
  const result: JsonSchema = { ...rest };
  if (properties) result.properties = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, toJsonSchema(property, schemas, seen)]));
  if (items) result.items = toJsonSchema(items, schemas, seen);
  if (typeof additionalProperties === 'object') result.additionalProperties = toJsonSchema(additionalProperties, schemas, seen);
  else if (additionalProperties !== undefined) result.additionalProperties = additionalProperties;
  for (const list of SCHEMA_LISTS) {
    const members = schema[list];
    if (members) result[list] = members.map((member) => toJsonSchema(member, schemas, seen));
  }
  if (example !== undefined) result.examples = [example];
  if (!nullable) return result;
  return typeof result.type === 'string' ? { ...result, type: [result.type, 'null'] } : { anyOf: [result, { type: 'null' }] };
}
