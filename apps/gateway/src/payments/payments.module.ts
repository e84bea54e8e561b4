import { Global, Module } from '@nestjs/common';
import { PaymentSettlementInterceptor } from './payment-settlement.interceptor';
import { X402Payments } from './x402-payments.service';

/** x402 pay-per-request: the guard admits paid callers through X402Payments, @PayPerRequest routes settle after success. */
@Global()
@Module({
  providers: [X402Payments, PaymentSettlementInterceptor],
  exports: [X402Payments, PaymentSettlementInterceptor],
})
export class PaymentsModule {}
