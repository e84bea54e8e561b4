import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webPageOf } from '@sift/content-extraction';
import { AccountRepository, type AccountWithPlan, RequestLogRepository, type RequestLogRecord } from '@sift/persistence';
import { PageRepository } from '@sift/pages';
import { callGateway, createTestKey } from '@sift/testing';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { RequestLogWriter } from '../request-log/request-log-writer.service';
import { startTestGateway, TestGateway, uniqueClientIp } from '../testing/gateway-harness';
import { LoopbackFacilitator, startLoopbackFacilitator, TRANSFER_WITH_AUTHORIZATION_TYPES, TransferAuthorization } from '../testing/loopback-facilitator';
import { PAYMENTS_LOG_ACCOUNT } from './x402-payments.service';

const NETWORK = 'eip155:84532';
/** USDC on Base Sepolia: the asset @x402/evm prices dollars in on that network. */
const BASE_SEPOLIA_USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';
/** A fixed test wallet (never funded anywhere); the loopback facilitator checks its signatures. */
const PAYER = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const STRANGER = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');

interface CredulousFacilitator {
  url: string;
  verified: PaymentPayload[];
  settled: PaymentPayload[];
  close(): Promise<void>;
}

/**
 * A facilitator that calls every payment valid and settles it: what the gateway must not rely on alone. It speaks
 * the same v2 wire format as the loopback facilitator and judges nothing.
 */
async function startCredulousFacilitator(network: string): Promise<CredulousFacilitator> {
  const verified: PaymentPayload[] = [];
  const settled: PaymentPayload[] = [];
  const supported: SupportedResponse = {
    kinds: [{ x402Version: 2, scheme: 'exact', network: network as SupportedResponse['kinds'][number]['network'] }],
    extensions: [],
    signers: { 'eip155:*': [PAY_TO] },
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const answer = (body: unknown) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'GET' && request.url === '/supported') return answer(supported);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { paymentPayload } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { paymentPayload: PaymentPayload };
      const payer = (paymentPayload.payload as { authorization: { from: string } }).authorization.from;
      if (request.url === '/verify') {
        verified.push(paymentPayload);
        answer({ isValid: true, payer } satisfies VerifyResponse);
      } else {
        settled.push(paymentPayload);
        answer({ success: true, payer, transaction: `0x${randomBytes(32).toString('hex')}`, network } as SettleResponse);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    verified,
    settled,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('x402 pay-per-request for advanced search (official client, loopback facilitator)', () => {
  let facilitator: LoopbackFacilitator;
  let gateway: TestGateway;
  /** Every request the official client sent, so a test can replay the payment it signed. */
  let sent: Request[];
  let paidFetch: (input: string, init?: RequestInit) => Promise<Response>;
  const marker = `x402${randomUUID().replace(/-/g, '').slice(0, 10)}`;

  beforeAll(async () => {
    facilitator = await startLoopbackFacilitator(NETWORK);
    gateway = await startTestGateway({ X402_PAY_TO: PAY_TO, X402_NETWORK: NETWORK, X402_FACILITATOR_URL: facilitator.url });
    const text = `The ${marker} lighthouse guides ships past the reef. Its ${marker} lamp turns every night and the keepers log each ship.`;
    await new PageRepository(gateway.prisma).save('operator', webPageOf({ finalUrl: `https://${marker}.example/lighthouse`, title: `${marker} lighthouse`, text, language: 'en' }), 'import');
    sent = [];
    const recordingFetch: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      sent.push(request.clone());
      return fetch(request);
    };
    paidFetch = wrapFetchWithPayment(recordingFetch, new x402Client().register('eip155:*', new ExactEvmScheme(PAYER)));
  });

  afterAll(async () => {
    await gateway.close();
    await facilitator.close();
  });

  const searchRequest = (body: Record<string, unknown>, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': uniqueClientIp(), ...headers },
    body: JSON.stringify(body),
  });
  const advancedSearch = () => ({ query: `${marker} lighthouse`, search_depth: 'advanced' });

  async function requirementsOf(response: Response): Promise<PaymentRequired> {
    expect(response.status).toBe(402);
    return decodePaymentRequiredHeader(response.headers.get('payment-required') as string);
  }

  /** A payment signed by hand (as a client other than the official one could), for what the official client never sends. */
  async function handSignedPayment(
    changes: { value?: string; validBefore?: number; signer?: typeof PAYER; to?: string },
    baseUrl = gateway.baseUrl,
  ): Promise<string> {
    const required = await requirementsOf(await fetch(`${baseUrl}/search`, searchRequest(advancedSearch())));
    const accepted = required.accepts[0] as PaymentRequirements;
    const authorization: TransferAuthorization = {
      from: PAYER.address,
      to: changes.to ?? accepted.payTo,
      value: changes.value ?? accepted.amount,
      validAfter: '0',
      validBefore: String(changes.validBefore ?? Math.floor(Date.now() / 1000) + accepted.maxTimeoutSeconds),
      nonce: `0x${randomBytes(32).toString('hex')}`,
    };
    const { name, version } = accepted.extra as { name: string; version: string };
    const signature = await (changes.signer ?? PAYER).signTypedData({
      domain: { name, version, chainId: 84532, verifyingContract: accepted.asset as Hex },
      types: TRANSFER_WITH_AUTHORIZATION_TYPES,
      primaryType: 'TransferWithAuthorization',
      message: {
        from: PAYER.address,
        to: authorization.to as Hex,
        value: BigInt(authorization.value),
        validAfter: 0n,
        validBefore: BigInt(authorization.validBefore),
        nonce: authorization.nonce,
      },
    });
    return encodePaymentSignatureHeader({ x402Version: 2, resource: required.resource, accepted, payload: { authorization, signature } });
  }

  async function loggedPaidRequest(requestId: string, by = gateway): Promise<RequestLogRecord | null> {
    await by.app.get(RequestLogWriter).flush();
    const account = await by.app.get(AccountRepository).findByName(PAYMENTS_LOG_ACCOUNT);
    return by.app.get(RequestLogRepository).findByRequestId(account?.id as string, requestId);
  }

  it('answers an advanced search without key, keyless header or payment 402 with the x402 v2 requirements', async () => {
    const verifiedBefore = facilitator.verified.length;
    const response = await fetch(`${gateway.baseUrl}/search`, searchRequest(advancedSearch()));
    const required = await requirementsOf(response);
    expect(required.x402Version).toBe(2);
    expect(required.accepts).toEqual([
      expect.objectContaining({ scheme: 'exact', network: NETWORK, asset: BASE_SEPOLIA_USDC, amount: '16000', payTo: PAY_TO }),
    ]);
    expect(await response.json()).toEqual({ detail: { error: expect.stringMatching(/Payment required.*x402/) } });
    expect(facilitator.verified.length).toBe(verifiedBefore);
  });

  it('runs the search paid with @x402/fetch, settles it afterwards, answers PAYMENT-RESPONSE, logs and counts it', async () => {
    const settledBefore = facilitator.settled.length;
    const response = await paidFetch(`${gateway.baseUrl}/search`, searchRequest(advancedSearch()));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { results: Array<{ url: string }> };
    expect(body.results.map((result) => result.url)).toContain(`https://${marker}.example/lighthouse`);

    expect(facilitator.settled.length).toBe(settledBefore + 1);
    const settlement = facilitator.settled[facilitator.settled.length - 1];
    expect(settlement.result.success).toBe(true);
    const receipt = decodePaymentResponseHeader(response.headers.get('payment-response') as string);
    expect(receipt).toMatchObject({ success: true, transaction: settlement.result.transaction, network: NETWORK, payer: PAYER.address });

    const row = await loggedPaidRequest(response.headers.get('x-request-id') as string);
    expect(row).toMatchObject({
      endpoint: 'search',
      depth: 'advanced',
      statusCode: 200,
      apiKeyId: null,
      detail: expect.objectContaining({
        payment: { payer: PAYER.address, amount: '16000', asset: BASE_SEPOLIA_USDC, network: NETWORK, transaction: settlement.result.transaction },
      }),
    });
    // The operator reads paid requests with a key of the payments account.
    const account = await gateway.app.get(AccountRepository).findByName(PAYMENTS_LOG_ACCOUNT);
    const { apiKey } = await createTestKey(gateway.prisma, account?.id as string);
    const logs = await callGateway<{ logs: Array<{ request_id: string; endpoint: string }> }>(gateway.baseUrl, 'POST', '/logs', { apiKey, body: {} });
    expect(logs.body.logs).toContainEqual(expect.objectContaining({ request_id: response.headers.get('x-request-id'), endpoint: 'search' }));
    const metrics = await callGateway<string>(gateway.baseUrl, 'GET', '/metrics');
    expect(metrics.body).toMatch(/sift_x402_payments_total\{outcome="settled"\} [1-9]/);
    expect(metrics.body).toMatch(new RegExp(`sift_x402_settled_amount_total\\{network="${NETWORK}",asset="${BASE_SEPOLIA_USDC}"\\} [1-9][0-9]*000`));
  });

  it('refuses a replayed payment with 402: the settled nonce is spent and no search runs', async () => {
    await paidFetch(`${gateway.baseUrl}/search`, searchRequest(advancedSearch()));
    const signed = sent.filter((request) => request.headers.has('payment-signature')).pop() as Request;
    const settledBefore = facilitator.settled.length;
    const replay = await fetch(`${gateway.baseUrl}/search`, searchRequest(advancedSearch(), { 'PAYMENT-SIGNATURE': signed.headers.get('payment-signature') as string }));
    expect((await requirementsOf(replay)).error).toBe('invalid_exact_evm_nonce_already_used');
    expect(facilitator.settled.length).toBe(settledBefore);
    expect(await loggedPaidRequest(replay.headers.get('x-request-id') as string)).toBeNull();
  });

  it.each([
    ['a signature by another wallet', { signer: STRANGER }, 'invalid_exact_evm_signature'],
    ['an underpaid amount', { value: '15999' }, 'invalid_exact_evm_payload_authorization_value_mismatch'],
    ['an expired authorization', { validBefore: Math.floor(Date.now() / 1000) - 60 }, 'invalid_exact_evm_payload_authorization_valid_before'],
  ])('refuses %s with 402 and runs no search', async (_case, changes, reason) => {
    const settledBefore = facilitator.settled.length;
    const verifiedBefore = facilitator.verified.length;
    const refused = await fetch(`${gateway.baseUrl}/search`, searchRequest(advancedSearch(), { 'PAYMENT-SIGNATURE': await handSignedPayment(changes) }));
    expect((await requirementsOf(refused)).error).toBe(reason);
    expect(await refused.json()).toEqual({ detail: { error: expect.stringContaining(reason) } });
    // The facilitator judged it (the gateway asked), and nothing was settled or run.
    expect(facilitator.verified.length).toBe(verifiedBefore + 1);
    expect(facilitator.settled.length).toBe(settledBefore);
    expect(await loggedPaidRequest(refused.headers.get('x-request-id') as string)).toBeNull();
  });

  it('runs one search for one payment sent ten times at once: the others are refused with 402 before any work', async () => {
    const payment = await handSignedPayment({});
    // A search that fails first lets its payment go (nobody was charged), so the payer may send it again.
    const failed = await fetch(`${gateway.baseUrl}/search`, searchRequest({ ...advancedSearch(), max_results: 1000 }, { 'PAYMENT-SIGNATURE': payment }));
    expect(failed.status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const settledBefore = facilitator.settled.length;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => fetch(`${gateway.baseUrl}/search`, searchRequest(advancedSearch(), { 'PAYMENT-SIGNATURE': payment }))),
    );
    const served = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(served).toHaveLength(1);
    expect(refused).toHaveLength(9);
    for (const answer of refused) {
      // Claimed by the request that runs; once it settled, the facilitator also calls the nonce spent.
      expect(['payment_already_claimed', 'invalid_exact_evm_nonce_already_used']).toContain((await requirementsOf(answer)).error);
      expect(await answer.json()).toEqual({ detail: { error: expect.stringMatching(/^Payment required \((payment_already_claimed|invalid_exact_evm_nonce_already_used)\)/) } });
    }
    expect(facilitator.settled.length - settledBefore).toBe(1);
    // One search ran: only its request has a row in the payments account; the refused ones never reached the route.
    const rows = await Promise.all(answers.map((answer) => loggedPaidRequest(answer.headers.get('x-request-id') as string)));
    expect(rows.filter((row) => row !== null)).toEqual([expect.objectContaining({ statusCode: 200, endpoint: 'search' })]);
    const metrics = await callGateway<string>(gateway.baseUrl, 'GET', '/metrics');
    expect(metrics.body).toMatch(/sift_x402_payments_total\{outcome="duplicate"\} [1-9]/);
  });

  it('settles nothing when the paid search fails (a bad query found after the payment was verified)', async () => {
    const verifiedBefore = facilitator.verified.length;
    const settledBefore = facilitator.settled.length;
    const response = await paidFetch(`${gateway.baseUrl}/search`, searchRequest({ ...advancedSearch(), max_results: 1000 }));
    expect(response.status).toBe(400);
    expect(response.headers.get('payment-response')).toBeNull();
    expect(facilitator.verified.length).toBe(verifiedBefore + 1);
    expect(facilitator.settled.length).toBe(settledBefore);
    const row = await loggedPaidRequest(response.headers.get('x-request-id') as string);
    expect(row).toMatchObject({ endpoint: 'search', statusCode: 400, detail: expect.objectContaining({ payment: expect.objectContaining({ payer: PAYER.address, transaction: null }) }) });
    const metrics = await callGateway<string>(gateway.baseUrl, 'GET', '/metrics');
    expect(metrics.body).toMatch(/sift_x402_payments_total\{outcome="unsettled"\} [1-9]/);
  });

  it('withholds the answer with 402 when the facilitator refuses the settlement', async () => {
    facilitator.settlementRefusal = 'invalid_exact_evm_insufficient_balance';
    try {
      const response = await paidFetch(`${gateway.baseUrl}/search`, searchRequest(advancedSearch()));
      expect(response.status).toBe(402);
      const body = await response.json();
      expect(body).toEqual({ detail: { error: expect.stringContaining('invalid_exact_evm_insufficient_balance') } });
      expect(body).not.toHaveProperty('results');
      const row = await loggedPaidRequest(response.headers.get('x-request-id') as string);
      expect(row).toMatchObject({ statusCode: 402, detail: expect.objectContaining({ payment: expect.objectContaining({ transaction: null }) }) });
    } finally {
      facilitator.settlementRefusal = null;
    }
  });

  it('keeps everything else without a key at 401: basic search, extract, crawl', async () => {
    const basic = await fetch(`${gateway.baseUrl}/search`, searchRequest({ query: `${marker} lighthouse` }));
    expect(basic.status).toBe(401);
    expect(basic.headers.get('payment-required')).toBeNull();
    for (const path of ['/extract', '/crawl']) {
      const answer = await fetch(`${gateway.baseUrl}${path}`, searchRequest({ urls: [`https://${marker}.example/lighthouse`], url: `https://${marker}.example`, search_depth: 'advanced', extract_depth: 'advanced' }));
      expect({ path, status: answer.status }).toEqual({ path, status: 401 });
    }
  });

  it('leaves keyless mode as it was: an advanced search with the keyless header runs free', async () => {
    const response = await fetch(`${gateway.baseUrl}/search`, searchRequest(advancedSearch(), { 'X-Service-Access-Mode': 'keyless' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('payment-response')).toBeNull();
  });

  it("offers the agentic payment in the keyless limit's next actions", async () => {
    const keyless = { 'X-Service-Access-Mode': 'keyless', 'X-Forwarded-For': uniqueClientIp() };
    // KEYLESS_REQUESTS_PER_MINUTE is 3 in the harness; an empty body fails validation after the budget is counted.
    for (let request = 0; request < 3; request += 1) await callGateway(gateway.baseUrl, 'POST', '/extract', { headers: keyless, body: {} });
    const refused = await callGateway<{ error: { next_actions: Array<{ type: string; details: string }> } }>(gateway.baseUrl, 'POST', '/extract', { headers: keyless, body: {} });
    expect(refused.status).toBe(429);
    expect(refused.body.error.next_actions).toContainEqual({ type: 'agentic_payment', details: expect.stringMatching(/x402.*PAYMENT-SIGNATURE/) });
  });

  describe('with a facilitator that calls every payment valid', () => {
    let credulous: CredulousFacilitator;
    let trusting: TestGateway;

    beforeAll(async () => {
      credulous = await startCredulousFacilitator(NETWORK);
      trusting = await startTestGateway({ X402_PAY_TO: PAY_TO, X402_NETWORK: NETWORK, X402_FACILITATOR_URL: credulous.url });
    });

    afterAll(async () => {
      await trusting.close();
      await credulous.close();
    });

    it.each([
      ['an underpaid amount', { value: '15999' }, 'invalid_exact_evm_payload_authorization_value_mismatch'],
      ['an overpaid amount', { value: '16001' }, 'invalid_exact_evm_payload_authorization_value_mismatch'],
      ['another recipient', { to: STRANGER.address }, 'invalid_exact_evm_recipient_mismatch'],
    ])('refuses %s with 402 itself: no search runs, nothing is settled (a payment signed as asked runs)', async (_case, changes, reason) => {
      const verifiedBefore = credulous.verified.length;
      const settledBefore = credulous.settled.length;
      const refused = await fetch(`${trusting.baseUrl}/search`, searchRequest(advancedSearch(), { 'PAYMENT-SIGNATURE': await handSignedPayment(changes, trusting.baseUrl) }));
      expect((await requirementsOf(refused)).error).toBe(reason);
      expect(await refused.json()).toEqual({ detail: { error: expect.stringContaining(reason) } });
      // The facilitator said yes; the gateway still said no.
      expect(credulous.verified.length).toBe(verifiedBefore + 1);
      expect(credulous.settled.length).toBe(settledBefore);
      expect(await loggedPaidRequest(refused.headers.get('x-request-id') as string, trusting)).toBeNull();
      const paid = await fetch(`${trusting.baseUrl}/search`, searchRequest(advancedSearch(), { 'PAYMENT-SIGNATURE': await handSignedPayment({}, trusting.baseUrl) }));
      expect(paid.status).toBe(200);
      expect(credulous.settled.length).toBe(settledBefore + 1);
    });
  });

  describe('the payments account', () => {
    const accounts = () => gateway.app.get(AccountRepository);
    const paymentsAccount = async () => (await accounts().findByName(PAYMENTS_LOG_ACCOUNT)) as AccountWithPlan;
    const rename = (id: string, name: string) => gateway.prisma.account.update({ where: { id }, data: { name } });

    /** A gateway with x402 on, started (and so holding the payments account) for the duration of `work`. */
    async function withRestartedGateway(work: (restarted: TestGateway) => Promise<void>): Promise<void> {
      const restarted = await startTestGateway({ X402_PAY_TO: PAY_TO, X402_NETWORK: NETWORK, X402_FACILITATOR_URL: facilitator.url });
      try {
        await work(restarted);
      } finally {
        await restarted.close();
      }
    }

    /** What a key of the account may do: read the logs, and spend nothing (433 before any work, no ledger row). */
    async function expectCannotSpend(on: TestGateway, accountId: string): Promise<void> {
      const { apiKey, id: apiKeyId } = await createTestKey(on.prisma, accountId);
      const search = await callGateway(on.baseUrl, 'POST', '/search', { apiKey, body: { query: `${marker} lighthouse` } });
      expect({ status: search.status, body: search.body }).toEqual({ status: 433, body: { detail: { error: expect.stringMatching(/pay-as-you-go limit/) } } });
      expect((await callGateway(on.baseUrl, 'POST', '/logs', { apiKey, body: {} })).status).toBe(200);
      const usage = await callGateway<{ account: { paygo_limit: number | null; paygo_usage: number } }>(on.baseUrl, 'GET', '/usage', { apiKey });
      expect(usage.body.account).toMatchObject({ paygo_limit: 0 });
      expect(await on.prisma.creditLedger.count({ where: { accountId, apiKeyId } })).toBe(0);
    }

    it('is created unable to spend: its keys read the logs, and a request that costs credits is refused with 433', async () => {
      // The account this file's gateway uses steps aside, so a gateway starting now creates the account afresh.
      const existing = await paymentsAccount();
      await rename(existing.id, `${PAYMENTS_LOG_ACCOUNT}-aside-${randomUUID()}`);
      let created: AccountWithPlan | null = null;
      try {
        await withRestartedGateway(async (restarted) => {
          created = await paymentsAccount();
          expect(created).toMatchObject({ planId: 'paygo', paygoLimit: 0 });
          expect(created.id).not.toBe(existing.id);
          await expectCannotSpend(restarted, created.id);
        });
      } finally {
        if (created) await rename((created as AccountWithPlan).id, `${PAYMENTS_LOG_ACCOUNT}-created-${randomUUID()}`);
        await rename(existing.id, PAYMENTS_LOG_ACCOUNT);
      }
    });

    it('is given its ceiling back at start-up when it was made without one (by an earlier version, or by hand)', async () => {
      const account = await paymentsAccount();
      await accounts().updatePlan(account.id, 'growth');
      await accounts().updatePaygoLimit(account.id, null);
      await withRestartedGateway(async (restarted) => {
        expect(await paymentsAccount()).toMatchObject({ id: account.id, planId: 'paygo', paygoLimit: 0 });
        await expectCannotSpend(restarted, account.id);
      });
    });
  });

  describe('with a facilitator that cannot be reached', () => {
    let stranded: TestGateway;
    let closed: LoopbackFacilitator;

    beforeAll(async () => {
      closed = await startLoopbackFacilitator(NETWORK);
      await closed.close();
      stranded = await startTestGateway({ X402_PAY_TO: PAY_TO, X402_NETWORK: NETWORK, X402_FACILITATOR_URL: closed.url });
    });

    afterAll(async () => {
      await stranded.close();
    });

    it('starts, and answers a payable search 503 with Retry-After instead of running it or failing with 500', async () => {
      const response = await fetch(`${stranded.baseUrl}/search`, searchRequest(advancedSearch()));
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBeTruthy();
      expect(await response.json()).toEqual({ detail: { error: expect.stringMatching(/payment facilitator/) } });
    });
  });

  describe('with x402 off (no X402_PAY_TO)', () => {
    let plain: TestGateway;

    beforeAll(async () => {
      plain = await startTestGateway();
    });

    afterAll(async () => {
      await plain.close();
    });

    it('answers an advanced search without a key 401, and the keyless limit offers no payment', async () => {
      const response = await fetch(`${plain.baseUrl}/search`, searchRequest(advancedSearch()));
      expect(response.status).toBe(401);
      expect(response.headers.get('payment-required')).toBeNull();
      const keyless = { 'X-Service-Access-Mode': 'keyless', 'X-Forwarded-For': uniqueClientIp() };
      for (let request = 0; request < 3; request += 1) await callGateway(plain.baseUrl, 'POST', '/extract', { headers: keyless, body: {} });
      const refused = await callGateway<{ error: { next_actions: Array<{ type: string }> } }>(plain.baseUrl, 'POST', '/extract', { headers: keyless, body: {} });
      expect(refused.status).toBe(429);
      expect(refused.body.error.next_actions.map((action) => action.type)).not.toContain('agentic_payment');
    });
  });
});
