import { applyDecorators, CanActivate, ExecutionContext, Inject, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { operatorTokenActor, type AdminActor } from '@sift/admin';
import { looksLikeApiKey } from '@sift/auth';
import { GATEWAY_CONFIG, type GatewayAppConfig } from '../core/core.module';
import { ApiError } from '../http/api-error';
import { presentedOperatorSecret, sameSecret } from '../observability/bearer-access';
import { Public } from '../caller/route-access.decorator';
import type { RequestWithContext } from '../caller/request-context';

export const ADMIN_TOKEN_UNSET_MESSAGE = 'Forbidden: the admin API is off on this gateway. Set ADMIN_TOKEN to turn it on, then send it as "Authorization: Bearer <ADMIN_TOKEN>".';
export const OPERATOR_UNAUTHORIZED_MESSAGE = 'Unauthorized: this route needs the operator credential, "Authorization: Bearer <ADMIN_TOKEN>".';
export const TENANT_KEY_REFUSED_MESSAGE = "Forbidden: an API key is a tenant's credential; this route needs the operator credential (ADMIN_TOKEN).";

const OPERATOR_ACTOR = Symbol('operator-actor');
const BROWSER_CHALLENGE = 'sift:operator-browser-challenge';

/**
 * Admits only the operator: the request must carry ADMIN_TOKEN. A tenant's API key is refused (403) even when valid,
 * without being looked up; with ADMIN_TOKEN unset every operator route answers 403 saying how to turn it on.
 * On success the request carries its actor for the audit (operatorOf).
 */
@Injectable()
export class OperatorGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayAppConfig,
  ) {}

  canActivate(host: ExecutionContext): boolean {
    const request = host.switchToHttp().getRequest<RequestWithContext & { [OPERATOR_ACTOR]?: AdminActor }>();
    const token = this.config.ADMIN_TOKEN;
    if (token === '') throw new ApiError(403, ADMIN_TOKEN_UNSET_MESSAGE);
    const presented = presentedOperatorSecret(request.headers);
    if (presented !== undefined && sameSecret(presented, token)) {
      request[OPERATOR_ACTOR] = operatorTokenActor(token, { requestId: request.sift?.correlationId, clientIp: request.sift?.clientIp });
      return true;
    }
    if (presented !== undefined && looksLikeApiKey(presented)) throw new ApiError(403, TENANT_KEY_REFUSED_MESSAGE);
    const browser = this.reflector.getAllAndOverride<boolean | undefined>(BROWSER_CHALLENGE, [host.getHandler(), host.getClass()]);
    // A page asks the browser for the token (Basic); an API route asks for a bearer, so Swagger UI shows no login box.
    throw new ApiError(401, OPERATOR_UNAUTHORIZED_MESSAGE, { 'WWW-Authenticate': browser ? 'Basic realm="Sift operator", charset="UTF-8"' : 'Bearer realm="sift-operator"' });
  }
}

/**
 * Marks a controller or route as the operator's: the tenant guard (API keys, keyless budgets) steps aside and the
 * OperatorGuard decides, so the route is never open. `browser: true` for pages a browser opens (Basic challenge).
 */
export function OperatorOnly(options: { browser?: boolean } = {}): ClassDecorator & MethodDecorator {
  return applyDecorators(Public(), SetMetadata(BROWSER_CHALLENGE, options.browser === true), UseGuards(OperatorGuard));
}

/** The operator behind a request the OperatorGuard admitted, as the audit records it. */
export function operatorOf(request: object): AdminActor {
  const actor = (request as { [OPERATOR_ACTOR]?: AdminActor })[OPERATOR_ACTOR];
  if (!actor) throw new Error('operatorOf: the route is not guarded by OperatorGuard');
  return actor;
}
