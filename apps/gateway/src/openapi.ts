import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

export const API_KEY_SCHEME = 'bearer';

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * The document's tags in the order Swagger UI lists them (it follows this array, not the order of the paths): the
 * data plane first, operations last. Client generators make one API class per tag.
 */
export const OPENAPI_TAGS = [
  { name: 'data', description: 'Search, extract, crawl, map and research: the data plane, billed in credits.' },
  { name: 'feedback', description: 'Feedback on results (beta, free).' },
  { name: 'account', description: 'Usage and request logs of the calling key and its account.' },
  { name: 'keys', description: 'Key management (enterprise plan).' },
  { name: 'team', description: 'Team members and their roles.' },
  { name: 'mcp', description: 'The MCP endpoint for agents (search and extract as tools).' },
  { name: 'operations', description: 'Health for load balancers and orchestrators.' },
  { name: 'admin', description: 'The operator\'s admin API (what `npm run admin` does): accounts, plans, keys, members, index jobs, the audit trail. Needs ADMIN_TOKEN, never a tenant\'s key.' },
] as const;

export type OpenApiTag = (typeof OPENAPI_TAGS)[number]['name'];

const API_KEY_DESCRIPTION =
  'Your Sift API key, sent as `Authorization: Bearer sift-prod-…` (`sift-dev-` or `sift-prod-` followed by 43 ' +
  'characters). Create one with `npm run admin -- keys create --account <name>`. Tavily clients send it as their API key.';

/** The admin routes' credential (apps/gateway/src/admin/operator.guard.ts). */
export const OPERATOR_SCHEME = 'operator';

const OPERATOR_DESCRIPTION =
  'The operator credential: the gateway\'s ADMIN_TOKEN, sent as `Authorization: Bearer <ADMIN_TOKEN>`. Only the /admin routes take it, ' +
  'and they take nothing else: a tenant\'s API key is refused with 403. Without ADMIN_TOKEN set the admin API is off (403).';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Sift')
    .setDescription(
      'Web access for AI agents: search, extract, crawl, map, research, feedback, usage, logs and key management. ' +
        'Tavily-compatible: point a Tavily client at this base URL. Errors are `{"detail": {"error": "..."}}`.',
    )
    .setVersion('1.0.0')
    // Not addBearerAuth: it adds `bearerFormat: JWT`, and a Sift key is no JWT.
    .addSecurity(API_KEY_SCHEME, { type: 'http', scheme: 'bearer', description: API_KEY_DESCRIPTION })
    .addSecurity(OPERATOR_SCHEME, { type: 'http', scheme: 'bearer', description: OPERATOR_DESCRIPTION });
  for (const tag of OPENAPI_TAGS) builder.addTag(tag.name, tag.description);
  // Each route names its own tag; the controller-name tag Nest adds by default would list every operation twice.
  const document = SwaggerModule.createDocument(app, builder.build(), { autoTagControllers: false });
  return { ...document, paths: pathsInTagOrder(document.paths) };
}

/** The paths grouped as the tags are ordered, so openapi.json reads data plane first too; stable within a tag. */
function pathsInTagOrder(paths: OpenAPIObject['paths']): OpenAPIObject['paths'] {
  const order: readonly string[] = OPENAPI_TAGS.map((tag) => tag.name);
  const rank = (item: OpenAPIObject['paths'][string]) => {
    const tag = HTTP_METHODS.map((method) => item[method]).find((operation) => operation)?.tags?.[0];
    return tag && order.includes(tag) ? order.indexOf(tag) : order.length;
  };
  return Object.fromEntries(Object.entries(paths).sort(([, left], [, right]) => rank(left) - rank(right)));
}

/** Swagger UI at /docs and the document at /openapi.json. */
export function setupOpenApi(app: INestApplication): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    customSiteTitle: 'Sift API',
    // The operation id is the method name a generated client gets: worth seeing next to each route.
    swaggerOptions: { displayOperationId: true },
  });
  return document;
}
