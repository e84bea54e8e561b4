import { ExecutionContext, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AccountRepository } from '@sift/persistence';
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from '@x402/core/http';
import {
  getFacilitatorResponseError,
  HTTPFacilitatorClient,
  type HTTPRequestContext,
  type HTTPResponseInstructions,
  x402HTTPResourceServer,
  x402ResourceServer,
} from '@x402/core/server';
import type { Network, PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { ExpressAdapter } from '@x402/express';
import type { KeylessCaller, RequestWithContext } from '../caller/request-context';
import { GATEWAY_CONFIG, GatewayAppConfig } from '../core/core.module';
import { ApiError, type KeylessNextAction, ServiceUnavailableError } from '../http/api-error';
import type { PaidRequest } from './paid-request';
import { PAY_PER_REQUEST, type PayableRequest } from './payable-request';
import { type PaymentClaim, PaymentClaims } from './payment-claims';
import { x402Metrics } from './x402-metrics';

/** The operator's account that holds the request log of paid requests (payers have no account). */
export const PAYMENTS_LOG_ACCOUNT = 'x402-payments';
/**
 * A paid plan, so a key of the account may read /logs, with no monthly credits and a pay-as-you-go ceiling of 0, so
 * that key cannot spend: without a ceiling, the paygo plan spends without limit.
 */
const PAYMENTS_LOG_PLAN = 'paygo';
const PAYMENTS_LOG_PAYGO_LIMIT = 0;

/** The route configuration's words for what is paid for, also in the requirements of the gateway's own refusals. */
const RESOURCE_DESCRIPTION = 'Sift advanced search, one request';
const RESOURCE_MIME_TYPE = 'application/json';

/** A payment another request holds (verified, not yet settled or let go): it pays for that request only. */
const PAYMENT_ALREADY_CLAIMED = 'payment_already_claimed';

/** How long a claim outlives the authorization's validBefore (clocks differ), and the longest it holds at all. */
const CLAIM_MARGIN_MS = 60_000;
const CLAIM_LONGEST_MS = 3_600_000;

/** The PAYMENT-RESPONSE headers of a settled payment, and its transaction for the request log. */
export interface Settlement {
  headers: Record<string, string>;
  transaction: string;
}

/**
 * x402 pay-per-request (spec Authentication 6), on while X402_PAY_TO is set. The protocol is the official
 * packages' (`@x402/core`'s HTTP resource server, `@x402/evm`'s exact scheme): this class only decides which
 * requests may pay, turns the packages' answers into the gateway's errors, verifies each payment (through the
 * facilitator and against the requirements itself) and claims it for one request before the work, and settles it
 * after the work, so a payer is charged only for a search that succeeded and one payment pays for one search.
 */
@Injectable()
export class X402Payments implements OnModuleInit {
  private readonly metrics = x402Metrics();
  private readonly resourceServer: x402ResourceServer | null;
  private readonly server: x402HTTPResourceServer | null;
  /** The facilitator's /supported, fetched on first use and again after a failure (it may be down at start-up). */
  private initialized: Promise<void> | null = null;
  private logAccountId = '';

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayAppConfig,
    private readonly reflector: Reflector,
    private readonly accounts: AccountRepository,
    private readonly claims: PaymentClaims,
  ) {
    this.resourceServer = config.X402_PAY_TO ? resourceServerFor(config) : null;
    this.server = this.resourceServer ? httpResourceServerFor(this.resourceServer, config) : null;
  }

  async onModuleInit(): Promise<void> {
    if (!this.server) return;
    // Fail at start-up on a chain without a known USDC, not at the first paid request.
    await new ExactEvmScheme().parsePrice(this.price, this.network);
    this.logAccountId = await this.findOrCreateLogAccount();
  }

  /**
   * The caller of a request without key nor keyless header that its route lets pay per request: a keyless caller
   * carrying its verified, claimed payment. Null when x402 is off or the request may not pay (the guard then answers
   * 401); a 402 with the PAYMENT-REQUIRED header when the payment is missing, the facilitator refused it, its signed
   * terms are not the requirements', or another request holds it.
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
    // The facilitator's word is not the only check: what the payer signed must be what this gateway asks for.
    const mismatch = signedTermsMismatch(payload, requirements);
    if (mismatch) {
      this.metrics.payments.inc({ outcome: 'refused' });
      throw await this.refusal(request, requirements, mismatch);
    }
    // Claimed before the work: the same payment sent again while this request runs does no work at all.
    const claim = claimOf(payload, requirements, request.sift.requestId);
    if (!(await this.claims.claim(claim))) {
      this.metrics.payments.inc({ outcome: 'duplicate' });
      throw await this.refusal(request, requirements, PAYMENT_ALREADY_CLAIMED, 'this payment already pays for another request (one payment, one search), sign a new one');
    }
    const payment: PaidRequest = {
      payer: payerOf(payload),
      amount: requirements.amount,
      asset: requirements.asset,
      network: requirements.network,
      logAccountId: this.logAccountId,
      payload,
      requirements,
      claim,
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

  /** The payment was not settled (the work failed, or the settlement was refused): it may pay for another request. */
  async release(payment: PaidRequest): Promise<void> {
    await this.claims.release(payment.claim);
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

  /** A 402 of the gateway's own, in the shape the package gives its refusals (PAYMENT-REQUIRED with the reason). */
  private async refusal(request: RequestWithContext, requirements: PaymentRequirements, reason: string, explanation?: string): Promise<ApiError> {
    const resource = { url: new ExpressAdapter(request).getUrl(), description: RESOURCE_DESCRIPTION, mimeType: RESOURCE_MIME_TYPE };
    const required = await (this.resourceServer as x402ResourceServer).createPaymentRequiredResponse([requirements], resource, reason);
    return paymentRefusal({ status: 402, headers: { 'PAYMENT-REQUIRED': encodePaymentRequiredHeader(required) } }, explanation);
  }

  /**
   * The account of paid requests' logs, held to a plan that cannot spend: created so, and put back so at start-up
   * when it was made otherwise (without the ceiling, or by hand with another plan).
   */
  private async findOrCreateLogAccount(): Promise<string> {
    let account = await this.accounts.findByName(PAYMENTS_LOG_ACCOUNT);
    if (!account) {
      try {
        account = await this.accounts.create({ name: PAYMENTS_LOG_ACCOUNT, planId: PAYMENTS_LOG_PLAN, paygoLimit: PAYMENTS_LOG_PAYGO_LIMIT });
      } catch (error) {
        // Another replica created it at the same moment (the name is unique).
        account = await this.accounts.findByName(PAYMENTS_LOG_ACCOUNT);
        if (!account) throw error;
      }
    }
    if (account.planId !== PAYMENTS_LOG_PLAN) account = await this.accounts.updatePlan(account.id, PAYMENTS_LOG_PLAN);
    if (account.paygoLimit !== PAYMENTS_LOG_PAYGO_LIMIT) account = await this.accounts.updatePaygoLimit(account.id, PAYMENTS_LOG_PAYGO_LIMIT);
    return account.id;
  }
}

function resourceServerFor(config: GatewayAppConfig): x402ResourceServer {
  const network = config.X402_NETWORK as Network;
  return new x402ResourceServer(new HTTPFacilitatorClient({ url: config.X402_FACILITATOR_URL })).register(network, new ExactEvmScheme());
}

function httpResourceServerFor(resourceServer: x402ResourceServer, config: GatewayAppConfig): x402HTTPResourceServer {
  // One route configuration for every payable request: which requests may pay is the routes' decision (@PayPerRequest).
  return new x402HTTPResourceServer(resourceServer, {
    accepts: { scheme: 'exact', network: config.X402_NETWORK as Network, payTo: config.X402_PAY_TO, price: `$${config.X402_PRICE_USD}` },
    description: RESOURCE_DESCRIPTION,
    mimeType: RESOURCE_MIME_TYPE,
  });
}

function httpContextOf(request: RequestWithContext): HTTPRequestContext {
  const adapter = new ExpressAdapter(request);
  return { adapter, path: request.path, method: request.method, paymentHeader: adapter.getHeader('payment-signature') };
}

/** The 402 in the gateway's error shape, with the package's headers (PAYMENT-REQUIRED) and its reason in plain words. */
function paymentRefusal(instructions: HTTPResponseInstructions, explanation?: string): ApiError {
  const required = instructions.headers['PAYMENT-REQUIRED'];
  const reason = required ? decodePaymentRequiredHeader(required).error : undefined;
  const message =
    `Payment required${reason && reason !== 'Payment required' ? ` (${reason})` : ''}: ${explanation ? `${explanation}; ` : ''}` +
    'advanced search without an API key is paid per request over x402. ' +
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

/** The exact scheme's EIP-3009 authorization, as the payer signed it (numbers as decimal strings). */
interface SignedAuthorization {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const NONCE = /^0x[0-9a-fA-F]{64}$/;
const UNSIGNED_INTEGER = /^[0-9]{1,78}$/;

function signedAuthorizationOf(payload: PaymentPayload): SignedAuthorization | null {
  const authorization = (payload.payload as { authorization?: Record<string, unknown> } | undefined)?.authorization;
  if (!authorization || typeof authorization !== 'object') return null;
  const { from, to, value, validAfter, validBefore, nonce } = authorization;
  const fields = { from, to, value, validAfter, validBefore, nonce };
  if (!Object.values(fields).every((field) => typeof field === 'string')) return null;
  const signed = fields as SignedAuthorization;
  if (!ADDRESS.test(signed.from) || !ADDRESS.test(signed.to) || !NONCE.test(signed.nonce)) return null;
  if (![signed.value, signed.validAfter, signed.validBefore].every((number) => UNSIGNED_INTEGER.test(number))) return null;
  return signed;
}

/**
 * Why the payment's signed terms are not these requirements (in @x402/evm's exact-scheme reason codes where it has
 * one), or null when they are. Checked here as well as by the facilitator, so a facilitator that verifies loosely
 * cannot get a search done for less, for someone else, or in another asset. The signature, which binds the asset
 * and the chain through its EIP-712 domain, is the facilitator's to check.
 */
function signedTermsMismatch(payload: PaymentPayload, requirements: PaymentRequirements): string | null {
  const accepted = payload.accepted;
  if (payload.x402Version !== 2 || accepted?.scheme !== 'exact' || requirements.scheme !== 'exact') return 'invalid_exact_evm_scheme';
  if (accepted.network !== requirements.network) return 'invalid_exact_evm_network_mismatch';
  if (typeof accepted.asset !== 'string' || accepted.asset.toLowerCase() !== requirements.asset.toLowerCase()) return 'invalid_exact_evm_asset_mismatch';
  const authorization = signedAuthorizationOf(payload);
  if (!authorization) return 'invalid_exact_evm_payload';
  if (authorization.to.toLowerCase() !== requirements.payTo.toLowerCase()) return 'invalid_exact_evm_recipient_mismatch';
  if (BigInt(authorization.value) !== BigInt(requirements.amount)) return 'invalid_exact_evm_payload_authorization_value_mismatch';
  return null;
}

/**
 * This request's claim on the payment. An EIP-3009 nonce is spent once per payer and token contract, so network,
 * asset, payer and nonce name one transfer authorization; the claim lasts while it could still be settled.
 */
function claimOf(payload: PaymentPayload, requirements: PaymentRequirements, requestId: string): PaymentClaim {
  const authorization = signedAuthorizationOf(payload) as SignedAuthorization;
  const identity = [requirements.network, requirements.asset, authorization.from, authorization.nonce].map((part) => part.toLowerCase());
  const validForMs = Number(BigInt(authorization.validBefore)) * 1000 - Date.now();
  return {
    key: `sift:x402:claim:${identity.join(':')}`,
    holder: requestId,
    holdMilliseconds: Math.min(CLAIM_LONGEST_MS, Math.max(0, validForMs) + CLAIM_MARGIN_MS),
  };
}
