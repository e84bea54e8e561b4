import { CanActivate, ExecutionContext, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { Request } from 'express';
import { GATEWAY_CONFIG, type GatewayAppConfig } from '../core/core.module';
import { ApiError } from '../http/api-error';
import { operatorAllowed } from '../observability/bearer-access';

export const CONSOLE_UNAUTHORIZED_MESSAGE = 'Unauthorized: the usage console needs the ADMIN_TOKEN.';

/**
 * The usage console (page and data) answers only the operator: `Authorization: Bearer <ADMIN_TOKEN>`, or Basic with
 * the token as password so a browser asks for it (and then sends it with the page's own data requests). A tenant's
 * API key is never enough. Without ADMIN_TOKEN the console is not there at all, as the queue dashboard.
 */
@Injectable()
export class OperatorConsoleGuard implements CanActivate {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayAppConfig) {}

  canActivate(host: ExecutionContext): boolean {
    const token = this.config.ADMIN_TOKEN;
    // Answered as any unknown path, so a gateway without the console does not reveal where it would be.
    if (token === '') throw new NotFoundException();
    const { headers } = host.switchToHttp().getRequest<Request>();
    if (operatorAllowed(headers, token)) return true;
    throw new ApiError(401, CONSOLE_UNAUTHORIZED_MESSAGE, { 'WWW-Authenticate': 'Basic realm="Sift console", charset="UTF-8"' });
  }
}
