import { applyDecorators, HttpCode, Type, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '@sift/api-contracts';
import { commonErrorExample, routeErrorExample } from '../http/error-response-examples';
import { AdminErrorsInterceptor } from './admin-errors.interceptor';
import { OPERATOR_SCHEME } from '../openapi';
import { OPERATOR_UNAUTHORIZED_MESSAGE, TENANT_KEY_REFUSED_MESSAGE } from './operator.guard';

export interface AdminEndpointOptions {
  /** The method name a generated client gets: camelCase, unique across the API. */
  operationId: string;
  summary: string;
  description?: string;
  response: Type<unknown>;
  /** 200 by default; 201 for what the call creates, 202 for a job it starts. */
  status?: 200 | 201 | 202;
  /** The JSON body and the example Swagger UI fills in. */
  body?: { type: Type<object>; example: object };
  /** Errors beyond the ones every admin route documents, status → meaning. */
  errors?: Record<number, string>;
}

/**
 * One wrapper per admin route: the admin tag, the operator security scheme, and the errors every admin route answers
 * (400 invalid input, 401 no operator credential, 403 a tenant's key or ADMIN_TOKEN unset, 500), documented alike.
 */
export function AdminEndpoint(options: AdminEndpointOptions): MethodDecorator {
  const status = options.status ?? 200;
  const errors: Record<number, { description: string; example: unknown }> = {
    400: { description: 'Invalid request', example: commonErrorExample(400, options.body?.type) },
    401: { description: 'Unauthorized: no operator credential (ADMIN_TOKEN), or a wrong one', example: routeErrorExample(401, OPERATOR_UNAUTHORIZED_MESSAGE) },
    403: { description: "Forbidden: a tenant's API key, or ADMIN_TOKEN is not set on this gateway", example: routeErrorExample(403, TENANT_KEY_REFUSED_MESSAGE) },
    500: { description: 'Internal server error', example: commonErrorExample(500) },
    ...Object.fromEntries(Object.entries(options.errors ?? {}).map(([code, meaning]) => [code, { description: meaning, example: routeErrorExample(Number(code), meaning) }])),
  };
  return applyDecorators(
    ApiTags('admin'),
    ApiOperation({ operationId: options.operationId, summary: options.summary, description: options.description }),
    ApiSecurity(OPERATOR_SCHEME),
    HttpCode(status),
    ApiResponse({ status, type: options.response, description: status === 202 ? 'Accepted: the job runs in the background; poll GET /admin/jobs/{id}' : 'Success' }),
    ...(options.body ? [ApiBody({ type: options.body.type, examples: { [options.operationId]: { summary: 'Try it out', value: options.body.example } } })] : []),
    ...Object.entries(errors)
      .sort(([left], [right]) => Number(left) - Number(right))
      .map(([code, error]) => ApiResponse({ status: Number(code), description: error.description, type: ErrorResponseDto, example: error.example })),
    UseInterceptors(AdminErrorsInterceptor),
  );
}
