export * from './billing-errors';
export * from './billing.service';
export * from './credit-costs';
export * from './credits-charged-metric';
export * from './utc-month';
