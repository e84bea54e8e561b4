import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { LogEndpoint } from '@sift/api-contracts';
import { RequestRecorder } from '../request-log/request-recorder.service';
import { ApiError, KEYLESS_NOT_ALLOWED_MESSAGE, UNAUTHORIZED_MESSAGE } from '../http/api-error';
import { rateLimitRefusal } from './rate-limit-refusal';
import { RATE_LIMIT_CATEGORY, RATE_LIMITED_PER_TOOL_CALL, ROUTE_ACCESS, RouteAccess } from './route-access.decorator';
import type { RequestWithContext } from './request-context';
import { CallerAuthentication } from './caller-authentication.service';
import { REQUEST_LOG_ENDPOINT } from '../http/endpoint.decorator';
import { NO_USAGE } from '../request-log/request-outcome';
import { X402Payments } from '../payments/x402-payments.service';

const KEYLESS_HEADERS = ['x-service-access-mode', 'x-tavily-access-mode'];

/**
 * Default-deny authentication and per-caller rate limits for every route. A valid key always wins over the
 * keyless header, so a keyed caller is held to the account's limits, never the keyless budget.
 */
@Injectable()
export class CallerGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(CallerAuthentication) private readonly authentication: CallerAuthentication,
    private readonly recorder: RequestRecorder,
    private readonly payments: X402Payments,
  ) {}

  async canActivate(host: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, [host.getHandler(), host.getClass()]);
    if (access === 'public') return true;
    const request = host.switchToHttp().getRequest<RequestWithContext>();
    const context = request.sift;
    const rawKey = bearerToken(request.headers.authorization) ?? bodyApiKey(request.body);
    const wantsKeyless = KEYLESS_HEADERS.some((name) => String(request.headers[name] ?? '').toLowerCase() === 'keyless');
    const perToolCall = this.reflector.get<boolean | undefined>(RATE_LIMITED_PER_TOOL_CALL, host.getHandler()) === true;

    if (rawKey) {
      const caller = await this.authentication.authenticate(rawKey);
      if (!caller) throw new ApiError(401, UNAUTHORIZED_MESSAGE);
      context.caller = caller;
      context.projectExternalId ??= caller.projectExternalId;
      if (perToolCall) return true;
      const category = this.reflector.getAllAndOverride<string | undefined>(RATE_LIMIT_CATEGORY, [host.getHandler(), host.getClass()]);
      const verdict = await this.authentication.consumeKeyBudget(caller, category ?? 'default');
      if (!verdict.allowed) {
        // Interceptors run after guards: a known key's refused request is recorded here, as the key's request.
        const endpoint = this.reflector.get<LogEndpoint | undefined>(REQUEST_LOG_ENDPOINT, host.getHandler());
        if (endpoint) this.recorder.record(context, endpoint, 429, NO_USAGE);
        throw rateLimitRefusal(caller, verdict.retryAfterSeconds);
      }
      return true;
    }

    if (wantsKeyless && access === 'keyless-allowed') {
      const caller = { keyless: true as const, clientIp: context.clientIp };
      const verdict = perToolCall ? { allowed: true, retryAfterSeconds: 0 } : await this.authentication.consumeKeylessBudget(context.clientIp);
      if (!verdict.allowed) throw rateLimitRefusal(caller, verdict.retryAfterSeconds, this.payments.keylessNextActions());
      context.caller = caller;
      return true;
    }
    if (wantsKeyless) throw new ApiError(401, KEYLESS_NOT_ALLOWED_MESSAGE);
    // Advanced search may be paid per request over x402 instead (402 until a verified payment comes with it).
    const payer = await this.payments.admit(host);
    if (payer) {
      context.caller = payer;
      return true;
    }
    // MCP clients read WWW-Authenticate as the request to sign in.
    throw new ApiError(401, UNAUTHORIZED_MESSAGE, { 'WWW-Authenticate': 'Bearer realm="sift"' });
  }
}

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** Official clients also send the key as `api_key` in the JSON body. */
function bodyApiKey(body: unknown): string | undefined {
  const value = (body as { api_key?: unknown } | undefined)?.api_key;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
