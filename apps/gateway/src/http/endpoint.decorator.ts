import { applyDecorators, HttpCode, SetMetadata, Type } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiBearerAuth, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ErrorResponseDto, KeylessErrorResponseDto, LogEndpoint } from '@sift/api-contracts';
import { API_KEY_SCHEME, OpenApiTag } from '../openapi';
import { KeylessAllowed } from '../caller/route-access.decorator';
import { IdempotentRoute } from '../idempotency/idempotent-route.decorator';
import { commonErrorExample, keylessLimitExample, routeErrorExample } from './error-response-examples';

/** Route metadata: the endpoint name under which the route's requests appear in POST /logs. */
export const REQUEST_LOG_ENDPOINT = 'sift:request-log-endpoint';

/** The optional headers a caller sends to attribute and trace a request (spec: common request headers). */
const CALLER_HEADERS = {
  'X-Project-ID': 'Project the usage is attributed to (created on first use); one key can serve many projects.',
  'X-Session-Id': 'Opaque id of a session of related requests; POST /feedback can refer to it as session_id.',
  'X-Human-Id': 'Opaque id of the end user behind the request; stored only as a hash.',
} as const;

export type CallerHeader = keyof typeof CALLER_HEADERS;

/** A billed request is charged, logged and attributed: every caller header applies to it. */
const BILLED_ROUTE_HEADERS = Object.keys(CALLER_HEADERS) as CallerHeader[];

export interface EndpointOptions {
  tag: OpenApiTag;
  /** The method name a generated client gets (`search`, `getResearch`): camelCase, unique across the API. */
  operationId: string;
  summary: string;
  description?: string;
  response: Type<unknown>;
  /**
   * The JSON body, and the example Swagger UI fills in: one that succeeds when tried. `fetches`: the public URL the
   * example reads, which its summary and description name, since it succeeds only where the workers reach the web.
   */
  body?: { type: Type<object>; example: object; fetches?: string };
  /** Extra documented errors beyond the common ones, status → meaning. */
  errors?: Record<number, string>;
  /** Callable without a key in keyless mode (search, extract); also documents the keyless 429. */
  keyless?: boolean;
  billed?: boolean;
  /** Caller headers the route reads besides those every billed route reads. */
  headers?: CallerHeader[];
  /**
   * The route's requests appear in POST /logs under this name; its handler then returns a `RequestOutcome`, which
   * the request-log interceptor records and unwraps into the response body.
   */
  requestLog?: LogEndpoint;
}

const COMMON_ERRORS: Record<number, string> = {
  400: 'Invalid request',
  401: 'Unauthorized: missing or invalid API key',
  429: 'Rate limit exceeded; see Retry-After',
  500: 'Internal server error',
};

const BILLING_ERRORS: Record<number, string> = {
  432: 'Exceeds the key or plan usage limit (upgrade the plan or contact support)',
  433: 'Exceeds the pay-as-you-go limit (raise it)',
};

/**
 * One wrapper per route: tag, operation id, security scheme, headers, body example and the common error responses
 * with their bodies, documented the same way everywhere.
 */
export function Endpoint(options: EndpointOptions): MethodDecorator {
  return applyDecorators(
    ApiTags(options.tag),
    ApiOperation({ operationId: options.operationId, summary: options.summary, description: options.description }),
    ApiBearerAuth(API_KEY_SCHEME),
    HttpCode(200),
    ApiOkResponse({ type: options.response, description: 'Success' }),
    ...(options.body ? [ApiBody({ type: options.body.type, examples: { [options.operationId]: bodyExample(options.body) } })] : []),
    ...headerDecorators(options),
    ...errorResponses(options),
    ...(options.keyless ? [KeylessAllowed()] : []),
    ...(options.requestLog ? [SetMetadata(REQUEST_LOG_ENDPOINT, options.requestLog)] : []),
    // Honoured on every POST of the tenant API; documented where the route declares its body (the POSTs).
    IdempotentRoute(options.body !== undefined),
  );
}

/** The "Try it out" example; one that reads a public site says so, so that its failure offline is no surprise. */
function bodyExample(body: NonNullable<EndpointOptions['body']>): { summary: string; description?: string; value: object } {
  if (body.fetches === undefined) return { summary: 'Try it out', value: body.example };
  return {
    summary: 'Try it out (fetches a public site: needs the web)',
    description:
      `Fetches ${body.fetches}, a public site, when tried: it works only where Sift's workers can reach the web. ` +
      'Without web access the site cannot be fetched; put in a URL the workers can reach instead.',
    value: body.example,
  };
}

function headerDecorators(options: EndpointOptions): MethodDecorator[] {
  const names = new Set([...(options.billed ? BILLED_ROUTE_HEADERS : []), ...(options.headers ?? [])]);
  const headers = [...names].map((name) => ApiHeader({ name, required: false, description: CALLER_HEADERS[name] }));
  if (!options.keyless) return headers;
  const keylessHeader = ApiHeader({
    name: 'X-Service-Access-Mode',
    required: false,
    enum: ['keyless'],
    description: 'keyless: call without an API key, within the per-address keyless budget. A valid key, when sent too, wins.',
  });
  return [...headers, keylessHeader];
}

function errorResponses(options: EndpointOptions): MethodDecorator[] {
  const common = { ...COMMON_ERRORS, ...(options.billed ? BILLING_ERRORS : {}) };
  const routeErrors = options.errors ?? {};
  const statuses = [...new Set([...Object.keys(common), ...Object.keys(routeErrors)].map(Number))].sort((left, right) => left - right);
  return statuses.map((status) => {
    const description = routeErrors[status] ?? common[status];
    const example = status in routeErrors ? routeErrorExample(status, description) : commonErrorExample(status, options.body?.type);
    if (status === 429 && options.keyless) return keylessAwareRateLimitResponse(description, example);
    return ApiResponse({ status, description, type: ErrorResponseDto, example });
  });
}

/** A keyless route answers 429 in two shapes: the key's `detail.error`, or the keyless envelope with next actions. */
function keylessAwareRateLimitResponse(keyedDescription: string, keyedExample: unknown): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(ErrorResponseDto, KeylessErrorResponseDto),
    ApiResponse({
      status: 429,
      description: `${keyedDescription}. With a key: \`detail.error\`. Keyless budget spent: the keyless envelope, whose next_actions say how to continue.`,
      content: {
        'application/json': {
          schema: { oneOf: [{ $ref: getSchemaPath(ErrorResponseDto) }, { $ref: getSchemaPath(KeylessErrorResponseDto) }] },
          examples: {
            keyed: { summary: 'With an API key', value: keyedExample },
            keyless: { summary: 'Keyless budget spent', value: keylessLimitExample() },
          },
        },
      },
    }),
  );
}
