import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { PageOwner } from '@sift/pages';
import type { Request } from 'express';
import type { PaidRequest } from '../payments/paid-request';

export interface KeyedCaller {
  keyless: false;
  apiKeyId: string;
  accountId: string;
  accountName: string;
  /** The team member the key belongs to; null for account-level keys made by the operator. */
  memberId: string | null;
  environment: string;
  planId: string;
  planPaid: boolean;
  planMonthlyCredits: number | null;
  paygoLimit: number | null;
  zeroDataRetention: boolean;
  creditLimit: number | null;
  /** The project the key was created for (generate-keys project_id): its requests count there unless X-Project-ID says otherwise. */
  projectExternalId?: string;
}

export interface KeylessCaller {
  keyless: true;
  clientIp: string;
  /** Set when the request is paid for over x402 (docs/x402.md) rather than drawn from the keyless budget. */
  payment?: PaidRequest;
}

export type Caller = KeyedCaller | KeylessCaller;

/** Per-request facts every endpoint needs, fixed once the auth guard has run; read by services and the request recorder. */
export interface RequestContext {
  /** Ours, unique per request: it keys the request's charge, log row and research task, so a caller never chooses it. */
  requestId: string;
  /**
   * The X-Request-Id echoed to the caller and carried by every log line of the request and its jobs: the caller's
   * (or its proxy's) own when it sent a valid one, else requestId.
   */
  correlationId: string;
  startedAt: bigint;
  caller?: Caller;
  projectExternalId?: string;
  sessionId?: string;
  humanIdHash?: string;
  clientIp: string;
}

export type RequestWithContext = Request & { sift: RequestContext };

export function responseTimeSeconds(context: RequestContext): number {
  return Math.round(Number(process.hrtime.bigint() - context.startedAt) / 1e4) / 1e5;
}

export const Ctx = createParamDecorator((_data: unknown, host: ExecutionContext): RequestContext => {
  return host.switchToHttp().getRequest<RequestWithContext>().sift;
});

/** Whose stored pages the caller may see: its account's and the shared ones; a keyless caller only the shared ones. */
export function pageViewerOf(context: RequestContext): PageOwner {
  return context.caller && !context.caller.keyless ? { accountId: context.caller.accountId } : 'keyless';
}

export function keyedCaller(context: RequestContext): KeyedCaller {
  if (!context.caller || context.caller.keyless) throw new Error('route requires a keyed caller');
  return context.caller;
}
