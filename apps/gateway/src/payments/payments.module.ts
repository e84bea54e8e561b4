import { Global, Module } from '@nestjs/common';
import { PaymentClaims } from './payment-claims';
import { PaymentSettlement } from './payment-settlement.service';
import { X402Payments } from './x402-payments.service';

/** x402 pay-per-request: the guard admits paid callers through X402Payments, paid outcomes are settled by the request-log interceptor after success. */
@Global()
@Module({
  providers: [X402Payments, PaymentClaims, PaymentSettlement],
  exports: [X402Payments, PaymentSettlement],
})
export class PaymentsModule {}
