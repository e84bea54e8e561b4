import { createHash, randomUUID } from 'node:crypto';
import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { catchError, defer, from, mergeMap, Observable, of, throwError } from 'rxjs';
import type { RequestContext, RequestWithContext } from '../caller/request-context';
import { ApiError, ServiceUnavailableError } from '../http/api-error';
import { describeError } from '../http/api-exception.filter';
import { canonicalJson } from './canonical-json';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENT_REPLAYED_HEADER, IDEMPOTENT_ROUTE } from './idempotent-route.decorator';
import { IDEMPOTENCY_RUNNING_TTL_MS, IdempotencyStore, StoredAnswer } from './idempotency-store';

/** How often a retry that arrived while its first request runs looks again: soon at first, then at most every second. */
const WAIT_BACK_OFF = { firstMs: 50, factor: 1.5, maximumMs: 1_000 } as const;

/**
 * Client errors that describe the moment, not the request: a retry should run again rather than get them back.
 * 429 (rate limited) says so itself; 408 and 409 are timing.
 */
const TRANSIENT_CLIENT_ERRORS = new Set([408, 409, 429]);

type Decision = { replay: StoredAnswer } | { run: { key: string; fingerprint: string; owner: string } };

/**
 * `Idempotency-Key` on the tenant API's POST routes (docs/idempotency.md). Runs after the guard (the caller is
 * known and its key valid) and outside the request-log interceptor, so a replayed answer never reaches the
 * metering, the request log or x402 settlement: the first request is charged and logged, its retries are not.
 * Answers and the running marker live in Redis, so a retry reaching another gateway is recognised there too.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('idempotency');

  constructor(
    private readonly reflector: Reflector,
    private readonly store: IdempotencyStore,
  ) {}

  intercept(host: ExecutionContext, next: CallHandler<unknown>): Observable<unknown> {
    const request = host.switchToHttp().getRequest<RequestWithContext>();
    if (request.method !== 'POST' || !this.reflector.get<boolean | undefined>(IDEMPOTENT_ROUTE, host.getHandler())) return next.handle();
    const header = request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
    if (header === undefined) return next.handle();
    const response = host.switchToHttp().getResponse<Response>();
    return defer(() => this.decide(request, Array.isArray(header) ? header.join(', ') : header)).pipe(
      mergeMap((decision) => ('replay' in decision ? this.replay(response, decision.replay) : this.run(request, response, decision.run, next))),
    );
  }

  private async decide(request: RequestWithContext, idempotencyKey: string): Promise<Decision> {
    if (idempotencyKey.length === 0 || idempotencyKey.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
      throw new ApiError(400, `${IDEMPOTENCY_KEY_HEADER} must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters long.`);
    }
    const key = sha256(`${callerScope(request.sift)}\n${idempotencyKey}`);
    const fingerprint = sha256(`${request.method} ${request.path}\n${canonicalJson(request.body)}`);
    const owner = randomUUID();
    // A retry may arrive while the first request runs: it waits for that answer, bounded by how long a running
    // request may hold its key; a client that goes away stops the wait.
    const deadline = Date.now() + IDEMPOTENCY_RUNNING_TTL_MS;
    let delayMs: number = WAIT_BACK_OFF.firstMs;
    for (;;) {
      const record = await this.store.claim(key, fingerprint, owner).catch((error: unknown) => {
        this.logger.warn(`${IDEMPOTENCY_KEY_HEADER} store unavailable: ${(error as Error)?.message ?? error}`);
        throw new ServiceUnavailableError(`the ${IDEMPOTENCY_KEY_HEADER} store cannot be reached`);
      });
      if (!record) return { run: { key, fingerprint, owner } };
      if (record.fingerprint !== fingerprint) {
        throw new ApiError(422, `${IDEMPOTENCY_KEY_HEADER} was already used with a different request (method, path or body); use a new key for a new request.`);
      }
      if (record.state === 'done') return { replay: record.answer };
      if (Date.now() + delayMs > deadline || request.socket.destroyed) {
        throw new ApiError(409, `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed; retry later.`, { 'Retry-After': '5' });
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(Math.round(delayMs * WAIT_BACK_OFF.factor), WAIT_BACK_OFF.maximumMs);
    }
  }

  private replay(response: Response, answer: StoredAnswer): Observable<unknown> {
    if (answer.body === null) {
      return throwError(
        () =>
          new ApiError(
            409,
            `A request with this ${IDEMPOTENCY_KEY_HEADER} already completed with status ${answer.status}; its answer is not kept for a zero-data-retention account.`,
          ),
      );
    }
    response.status(answer.status);
    response.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return of(JSON.parse(answer.body) as unknown);
  }

  private run(request: RequestWithContext, response: Response, claim: { key: string; fingerprint: string; owner: string }, next: CallHandler<unknown>): Observable<unknown> {
    const retained = !isZeroDataRetention(request.sift);
    return next.handle().pipe(
      mergeMap((body) =>
        from(
          (async () => {
            // A body that is not JSON is answered once and not kept; its retries run again.
            if (body === null || typeof body !== 'object') await this.forget(claim);
            else await this.keep(claim, { status: response.statusCode, body: retained ? JSON.stringify(body) : null });
            return body;
          })(),
        ),
      ),
      catchError((error: unknown) =>
        from(
          (async () => {
            const { status, body } = describeError(error, request.path);
            if (status >= 500 || TRANSIENT_CLIENT_ERRORS.has(status)) await this.forget(claim);
            else await this.keep(claim, { status, body: retained ? JSON.stringify(body) : null });
            throw error;
          })(),
        ),
      ),
    );
  }

  /** Storing is best effort: the request has run and is answered either way; only its retries would run again. */
  private async keep(claim: { key: string; fingerprint: string }, answer: StoredAnswer): Promise<void> {
    await this.store.complete(claim.key, claim.fingerprint, answer).catch((error: unknown) => this.logger.warn(`could not keep an answer: ${(error as Error)?.message ?? error}`));
  }

  private async forget(claim: { key: string; owner: string }): Promise<void> {
    await this.store.release(claim.key, claim.owner).catch((error: unknown) => this.logger.warn(`could not release a key: ${(error as Error)?.message ?? error}`));
  }
}

/** Keys are per API key (members of one account do not see each other's answers); keyless callers per address. */
function callerScope(context: RequestContext): string {
  const caller = context.caller;
  if (!caller) return `anonymous:${context.clientIp}`;
  return caller.keyless ? `keyless:${caller.clientIp}` : `key:${caller.apiKeyId}`;
}

function isZeroDataRetention(context: RequestContext): boolean {
  return !!context.caller && !context.caller.keyless && context.caller.zeroDataRetention;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
