import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from '@x402/core/types';
import { getAddress, type Hex, isAddressEqual, verifyTypedData } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/** The EIP-3009 message USDC's transferWithAuthorization checks, as the exact scheme signs it. */
export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** The authorization inside an exact-scheme EVM payload (`payload.authorization`), all numbers as decimal strings. */
export interface TransferAuthorization {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: Hex;
}

interface FacilitatorCall {
  paymentPayload: PaymentPayload;
  paymentRequirements: PaymentRequirements;
}

export interface LoopbackFacilitator {
  url: string;
  /** Every /verify body received, in order. */
  verified: FacilitatorCall[];
  /** Every /settle body received, in order, with the facilitator's answer. */
  settled: Array<FacilitatorCall & { result: SettleResponse }>;
  /** Set to a reason to refuse every settlement with it (as when the payer's balance is gone by then). */
  settlementRefusal: string | null;
  close(): Promise<void>;
}

/** Verification is refused this close to validBefore, as a real facilitator leaves time for the transaction. */
const VALID_BEFORE_MARGIN_SECONDS = 6;

/**
 * A facilitator on the loopback that speaks the x402 v2 facilitator wire format (GET /supported, POST /verify,
 * POST /settle) for the exact scheme on one EVM network, the way a real one judges a payment: the EIP-3009
 * signature recovered with viem, recipient, amount, validity window and nonce. It settles without a chain: a
 * settled nonce is spent (a replay is refused) and the settlement gets a made-up transaction hash.
 */
export async function startLoopbackFacilitator(network: string): Promise<LoopbackFacilitator> {
  const signer = privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`);
  const spentNonces = new Set<string>();
  const verified: FacilitatorCall[] = [];
  const settled: LoopbackFacilitator['settled'] = [];
  const chainId = Number(network.split(':')[1]);
  const facilitator: LoopbackFacilitator = { url: '', verified, settled, settlementRefusal: null, close: async () => undefined };

  async function judge({ paymentPayload, paymentRequirements }: FacilitatorCall): Promise<VerifyResponse> {
    const { authorization, signature } = paymentPayload.payload as { authorization: TransferAuthorization; signature: Hex };
    const payer = authorization.from;
    const refuse = (invalidReason: string): VerifyResponse => ({ isValid: false, invalidReason, payer });
    const now = Math.floor(Date.now() / 1000);
    if (paymentPayload.accepted.scheme !== 'exact' || paymentRequirements.scheme !== 'exact') return refuse('invalid_exact_evm_scheme');
    if (paymentPayload.accepted.network !== network || paymentRequirements.network !== network) return refuse('invalid_exact_evm_network_mismatch');
    if (!isAddressEqual(getAddress(authorization.to), getAddress(paymentRequirements.payTo))) return refuse('invalid_exact_evm_recipient_mismatch');
    if (BigInt(authorization.value) !== BigInt(paymentRequirements.amount)) return refuse('invalid_exact_evm_payload_authorization_value_mismatch');
    if (BigInt(authorization.validBefore) < BigInt(now + VALID_BEFORE_MARGIN_SECONDS)) return refuse('invalid_exact_evm_payload_authorization_valid_before');
    if (BigInt(authorization.validAfter) > BigInt(now)) return refuse('invalid_exact_evm_payload_authorization_valid_after');
    if (spentNonces.has(authorization.nonce.toLowerCase())) return refuse('invalid_exact_evm_nonce_already_used');
    const { name, version } = paymentRequirements.extra as { name: string; version: string };
    const signed = await verifyTypedData({
      address: getAddress(payer),
      domain: { name, version, chainId, verifyingContract: getAddress(paymentRequirements.asset) },
      types: TRANSFER_WITH_AUTHORIZATION_TYPES,
      primaryType: 'TransferWithAuthorization',
      message: {
        from: getAddress(authorization.from),
        to: getAddress(authorization.to),
        value: BigInt(authorization.value),
        validAfter: BigInt(authorization.validAfter),
        validBefore: BigInt(authorization.validBefore),
        nonce: authorization.nonce,
      },
      signature,
    }).catch(() => false);
    return signed ? { isValid: true, payer } : refuse('invalid_exact_evm_signature');
  }

  async function settle(call: FacilitatorCall): Promise<SettleResponse> {
    const verdict = await judge(call);
    if (facilitator.settlementRefusal) return { success: false, errorReason: facilitator.settlementRefusal, payer: verdict.payer, transaction: '', network: call.paymentRequirements.network };
    if (!verdict.isValid) return { success: false, errorReason: verdict.invalidReason, payer: verdict.payer, transaction: '', network: call.paymentRequirements.network };
    const { authorization } = call.paymentPayload.payload as { authorization: TransferAuthorization };
    spentNonces.add(authorization.nonce.toLowerCase());
    return { success: true, payer: verdict.payer, transaction: `0x${randomBytes(32).toString('hex')}`, network: call.paymentRequirements.network };
  }

  const supported: SupportedResponse = {
    kinds: [{ x402Version: 2, scheme: 'exact', network: network as SupportedResponse['kinds'][number]['network'] }],
    extensions: [],
    signers: { 'eip155:*': [signer.address] },
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'GET' && request.url === '/supported') return answer(200, supported);
    if (request.method !== 'POST' || (request.url !== '/verify' && request.url !== '/settle')) return answer(404, { error: 'not found' });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const call = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FacilitatorCall;
      if (request.url === '/verify') {
        verified.push(call);
        void judge(call).then((verdict) => answer(200, verdict));
      } else {
        void settle(call).then((result) => {
          settled.push({ ...call, result });
          answer(200, result);
        });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  facilitator.url = `http://127.0.0.1:${port}`;
  facilitator.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return facilitator;
}
