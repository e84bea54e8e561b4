import { applyDecorators, HttpCode, SetMetadata, Type } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto, KeylessErrorResponseDto, LogEndpoint } from '@sift/api-contracts';
import { API_KEY_SCHEME } from '../openapi';
import { KeylessAllowed } from '../caller/route-access.decorator';

/** Route metadata: the endpoint name under which the route's requests appear in POST /logs. */
export const REQUEST_LOG_ENDPOINT = 'sift:request-log-endpoint';

export interface EndpointOptions {
  tag: string;
  summary: string;
  description?: string;
  response: Type<unknown>;
  /** Extra documented errors beyond the common ones, status → meaning. */
  errors?: Record<number, string>;
  /** Callable without a key in keyless mode (search, extract); also documents the keyless 429. */
  keyless?: boolean;
  billed?: boolean;
  /**
   * The route's requests appear in POST /logs under this name; its handler then returns a `RequestOutcome`, which
   * the request-log interceptor records and unwraps into the response body.
   */
  requestLog?: LogEndpoint;
}

const BILLING_ERRORS: Record<number, string> = {
  432: 'Exceeds the key or plan usage limit (upgrade the plan or contact support)',
  433: 'Exceeds the pay-as-you-go limit (raise it)',
};

/** One wrapper per route: summary, security scheme and the common error responses, documented the same way everywhere. */
export function Endpoint(options: EndpointOptions): MethodDecorator {
  const errors: Record<number, string> = {
    400: 'Invalid request',
    401: 'Unauthorized: missing or invalid API key',
    429: options.keyless
      ? 'Rate limit exceeded (keyed: `detail.error`; keyless budget: the keyless envelope with next actions)'
      : 'Rate limit exceeded; see Retry-After',
    ...(options.billed ? BILLING_ERRORS : {}),
    500: 'Internal server error',
    ...options.errors,
  };
  return applyDecorators(
    ApiTags(options.tag),
    ApiOperation({ summary: options.summary, description: options.description }),
    ApiBearerAuth(API_KEY_SCHEME),
    HttpCode(200),
    ApiOkResponse({ type: options.response }),
    ...Object.entries(errors).map(([status, description]) =>
      ApiResponse({
        status: Number(status),
        description,
        type: Number(status) === 429 && options.keyless ? KeylessErrorResponseDto : ErrorResponseDto,
      }),
    ),
    ...(options.keyless ? [KeylessAllowed()] : []),
    ...(options.requestLog ? [SetMetadata(REQUEST_LOG_ENDPOINT, options.requestLog)] : []),
  );
}
