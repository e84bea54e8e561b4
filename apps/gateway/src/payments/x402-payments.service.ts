import { ExecutionContext, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AccountRepository } from '@sift/persistence';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import {
  getFacilitatorResponseError,
  HTTPFacilitatorClient,
  type HTTPRequestContext,
  type HTTPResponseInstructions,
  x402HTTPResourceServer,
  x402ResourceServer,
} from '@x402/core/server';
import type { Network, PaymentPayload } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { ExpressAdapter } from '@x402/express';
import type { KeylessCaller, RequestWithContext } from '../caller/request-context';
import { GATEWAY_CONFIG, GatewayAppConfig } from '../core/core.module';
import { ApiError, type KeylessNextAction, ServiceUnavailableError } from '../http/api-error';
import type { PaidRequest } from './paid-request';
import { PAY_PER_REQUEST, type PayableRequest } from './payable-request';
import { x402Metrics } from './x402-metrics';

/** The operator's account that holds the request log of paid requests (payers have no account). */
export const PAYMENTS_LOG_ACCOUNT = 'x402-payments';
/** A paid plan, so a key of the account may read /logs, without a pay-as-you-go limit, so that key cannot spend. */
const PAYMENTS_LOG_PLAN = 'paygo';

/** The PAYMENT-RESPONSE headers of a settled payment, and its transaction for the request log. */
export interface Settlement {
  headers: Record<string, string>;
  transaction: string;
}

/**
 * x402 pay-per-request (spec Authentication 6), on while X402_PAY_TO is set. The protocol is the official
 * packages' (`@x402/core`'s HTTP resource server, `@x402/evm`'s exact scheme): this class only decides which
 * requests may pay, turns the packages' answers into the gateway's errors, and verifies before the work and
 * settles after it, so a payer is charged only for a search that succeeded.
 */
@Injectable()
export class X402Payments implements OnModuleInit {
  private readonly metrics = x402Metrics();
  private readonly server: x402HTTPResourceServer | null;
  /** The facilitator's /supported, fetched on first use and again after a failure (it may be down at start-up). */
  private initialized: Promise<void> | null = null;
  private logAccountId = '';

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayAppConfig,
    private readonly reflector: Reflector,
    private readonly accounts: AccountRepository,
  ) {
    this.server = config.X402_PAY_TO ? resourceServerFor(config) : null;
  }

  async onModuleInit(): Promise<void> {
    if (!this.server) return;
    // Fail at start-up on a chain without a known USDC, not at the first paid request.
    await new ExactEvmScheme().parsePrice(this.price, this.network);
    this.logAccountId = await this.findOrCreateLogAccount();
  }

  /**
   * The caller of a request without key nor keyless header that its route lets pay per request: a keyless caller
   * carrying its verified payment. Null when x402 is off or the request may not pay (the guard then answers 401);
   * a 402 with the PAYMENT-REQUIRED header when the payment is missing or the facilitator refused it.
   */
  async admit(host: ExecutionContext): Promise<KeylessCaller | null> {
    if (!this.server) return null;
    const isPayable = this.reflector.get<PayableRequest | undefined>(PAY_PER_REQUEST, host.getHandler());
    const request = host.switchToHttp().getRequest<RequestWithContext>();
    if (!isPayable?.(request.body)) return null;
    const context = httpContextOf(request);
    const result = await this.facilitated(async (server) => server.processHTTPRequest(context));
    if (result.type === 'payment-error') {
      this.metrics.payments.inc({ outcome: context.paymentHeader ? 'refused' : 'required' });
      throw paymentRefusal(result.response);
    }
    if (result.type === 'no-payment-required') return null;
    const { paymentPayload: payload, paymentRequirements: requirements } = result;
    const payment: PaidRequest = {
      payer: payerOf(payload),
      amount: requirements.amount,
      asset: requirements.asset,
      network: requirements.network,
      logAccountId: this.logAccountId,
      payload,
      requirements,
    };
    return { keyless: true, clientIp: request.sift.clientIp, payment };
  }

  /** Settles a paid request whose work succeeded. A refused settlement is a 402, and the work's answer is withheld. */
  async settle(payment: PaidRequest, request: RequestWithContext): Promise<Settlement> {
    const result = await this.facilitated((server) => server.processSettlement(payment.payload, payment.requirements, undefined, { request: httpContextOf(request) }));
    if (!result.success) {
      this.metrics.payments.inc({ outcome: 'settlement_failed' });
      throw new ApiError(402, `Payment could not be settled (${result.errorReason}); nothing was charged. Retry with a new payment.`, result.response.headers);
    }
    this.metrics.payments.inc({ outcome: 'settled' });
    this.metrics.settledAmount.inc({ network: payment.network, asset: payment.asset }, Number(payment.amount));
    return { headers: result.headers, transaction: result.transaction };
  }

  /** The work failed: its verified payment is never settled, so the payer is not charged. */
  leaveUnsettled(): void {
    this.metrics.payments.inc({ outcome: 'unsettled' });
  }

  /** What the keyless limit's answer offers besides a key and waiting, when x402 is on. */
  keylessNextActions(): KeylessNextAction[] {
    if (!this.server) return [];
    return [
      {
        type: 'agentic_payment',
        details:
          `Pay per request with x402, no key or account needed: POST /search with "search_depth": "advanced" and neither a key nor the keyless ` +
          `header answers 402 with a PAYMENT-REQUIRED header (${this.price} in USDC on ${this.network}); sign it and resend the request with ` +
          'the PAYMENT-SIGNATURE header. An x402 client such as @x402/fetch does both.',
      },
    ];
  }

  private get price(): string {
    return `$${this.config.X402_PRICE_USD}`;
  }

  private get network(): Network {
    return this.config.X402_NETWORK as Network;
  }

  /** Runs a call that reaches the facilitator; an unreachable or broken facilitator is a 503, never a 500. */
  private async facilitated<T>(call: (server: x402HTTPResourceServer) => Promise<T>): Promise<T> {
    const server = this.server as x402HTTPResourceServer;
    this.initialized ??= server.initialize().catch((error: unknown) => {
      this.initialized = null;
      throw error;
    });
    try {
      await this.initialized;
    } catch (error) {
      throw facilitatorUnavailable(error);
    }
    try {
      return await call(server);
    } catch (error) {
      if (getFacilitatorResponseError(error)) throw facilitatorUnavailable(error);
      throw error;
    }
  }

  private async findOrCreateLogAccount(): Promise<string> {
    const existing = await this.accounts.findByName(PAYMENTS_LOG_ACCOUNT);
    if (existing) return existing.id;
    try {
      return (await this.accounts.create({ name: PAYMENTS_LOG_ACCOUNT, planId: PAYMENTS_LOG_PLAN })).id;
    } catch (error) {
      // Another replica created it at the same moment (the name is unique).
      const created = await this.accounts.findByName(PAYMENTS_LOG_ACCOUNT);
      if (created) return created.id;
      throw error;
    }
  }
}

function resourceServerFor(config: GatewayAppConfig): x402HTTPResourceServer {
  const network = config.X402_NETWORK as Network;
  const resourceServer = new x402ResourceServer(new HTTPFacilitatorClient({ url: config.X402_FACILITATOR_URL })).register(network, new ExactEvmScheme());
  // One route configuration for every payable request: which requests may pay is the routes' decision (@PayPerRequest).
  return new x402HTTPResourceServer(resourceServer, {
    accepts: { scheme: 'exact', network, payTo: config.X402_PAY_TO, price: `$${config.X402_PRICE_USD}` },
    description: 'Sift advanced search, one request',
    mimeType: 'application/json',
  });
}

function httpContextOf(request: RequestWithContext): HTTPRequestContext {
  const adapter = new ExpressAdapter(request);
  return { adapter, path: request.path, method: request.method, paymentHeader: adapter.getHeader('payment-signature') };
}

/** The 402 in the gateway's error shape, with the package's headers (PAYMENT-REQUIRED) and its reason in plain words. */
function paymentRefusal(instructions: HTTPResponseInstructions): ApiError {
  const required = instructions.headers['PAYMENT-REQUIRED'];
  const reason = required ? decodePaymentRequiredHeader(required).error : undefined;
  const message =
    `Payment required${reason && reason !== 'Payment required' ? ` (${reason})` : ''}: advanced search without an API key is paid per request over x402. ` +
    'The PAYMENT-REQUIRED header lists what to pay; resend the request with a PAYMENT-SIGNATURE header.';
  // The package answers browsers with a paywall page; this API answers everyone in JSON.
  const headers = Object.fromEntries(Object.entries(instructions.headers).filter(([name]) => name.toLowerCase() !== 'content-type'));
  return new ApiError(instructions.status, message, headers);
}

function facilitatorUnavailable(error: unknown): ServiceUnavailableError {
  const cause = getFacilitatorResponseError(error) ?? (error as Error);
  return new ServiceUnavailableError(`the payment facilitator cannot be used (${cause.message})`);
}

/** The exact scheme's EIP-3009 authorization names the paying wallet. */
function payerOf(payload: PaymentPayload): string {
  const authorization = (payload.payload as { authorization?: { from?: unknown } }).authorization;
  return typeof authorization?.from === 'string' ? authorization.from : 'unknown';
}
