import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '@sift/api-contracts';
import { PAY_PER_REQUEST, type PayableRequest } from './payable-request';

/**
 * The route's requests that `isPayable` accepts may be paid over x402 instead of with a key (docs/x402.md): without
 * a key and without the keyless header they are answered 402 with the payment requirements, or run once the
 * facilitator verified the payment, which the request-log interceptor settles only when the route succeeded.
 */
export function PayPerRequest(isPayable: PayableRequest): MethodDecorator {
  return applyDecorators(
    SetMetadata(PAY_PER_REQUEST, isPayable),
    ApiHeader({
      name: 'PAYMENT-SIGNATURE',
      required: false,
      description: 'x402 v2 payment (base64 JSON) for an advanced search without API key, signed for the requirements of the 402 answer.',
    }),
    ApiResponse({
      status: 402,
      type: ErrorResponseDto,
      description:
        'Payment required (only when x402 is on, X402_PAY_TO): an advanced search without API key and without the keyless header. ' +
        'The PAYMENT-REQUIRED header (x402 v2, base64 JSON) lists scheme "exact", network, asset (USDC), amount and payTo; resend ' +
        'with PAYMENT-SIGNATURE. A paid answer carries PAYMENT-RESPONSE; a failed search settles nothing.',
      example: {
        detail: {
          error:
            'Payment required: advanced search without an API key is paid per request over x402. ' +
            'The PAYMENT-REQUIRED header lists what to pay; resend the request with a PAYMENT-SIGNATURE header.',
        },
      },
    }),
  );
}
