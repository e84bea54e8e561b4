export * from './account.repository';
export * from './api-key.repository';
export * from './credit-ledger.repository';
export * from './feedback.repository';
export * from './member.repository';
export * from './project.repository';
export * from './request-log.repository';
export * from './database-probe';
