export * from './api-key-authenticator.service';
export * from './api-key-format';
export * from './rate-limits';
export * from './redis-rate-limiter.service';
export * from './team-errors';
export * from './team.service';
