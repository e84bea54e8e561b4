export * from './billing-errors';
export * from './billing.service';
export * from './credit-allocation';
export * from './credit-costs';
export * from './usage-report';
export * from './utc-month';
