export * from './billing-errors';
export * from './billing.service';
export * from './credit-costs';
export * from './utc-month';
