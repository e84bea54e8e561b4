// Public API of @sift/api-contracts: the HTTP request/response shapes of every endpoint.
export * from './common/calendar-date.validator';
export * from './common/content-options.constants';
export * from './common/error-response.dto';
export * from './common/failed-result.dto';
export * from './common/stacked-decorators';
export * from './common/keyless-error-response.dto';
export * from './common/null-as-default.transform';
export * from './common/request-input.limits';
export * from './common/usage-credits.dto';
export * from './common/token-budget.dto';

export * from './search/search.constants';
export * from './search/search-request.dto';
export * from './search/image-result.dto';
export * from './search/search-result.dto';
export * from './search/search-auto-parameters.dto';
export * from './search/search-response.dto';

export * from './extract/extract.constants';
export * from './extract/extract-request.dto';
export * from './extract/extract-response.dto';

export * from './map/site-traversal.constants';
export * from './map/map-request.dto';
export * from './map/map-response.dto';

export * from './crawl/crawl-request.dto';
export * from './crawl/crawl-response.dto';

export * from './research/research.constants';
export * from './research/research-request.dto';
export * from './research/research-response.dto';

export * from './feedback/feedback.constants';
export * from './feedback/score-value.validator';
export * from './feedback/feedback-request.dto';
export * from './feedback/feedback-target.validator';
export * from './feedback/feedback-response.dto';

export * from './usage/plan.constants';
export * from './usage/usage-response.dto';

export * from './logs/logs.constants';
export * from './logs/logs-request.dto';
export * from './logs/logs-response.dto';

export * from './keys/keys.constants';
export * from './keys/generate-keys-request.dto';
export * from './keys/generate-keys-response.dto';
export * from './keys/deactivate-keys-request.dto';
export * from './keys/deactivate-keys-response.dto';
export * from './keys/key-info-response.dto';

export * from './team/team.constants';
export * from './team/member.dto';
export * from './team/members-response.dto';
export * from './team/invite-member-request.dto';
export * from './team/change-role-request.dto';

export * from './health/health-response.dto';

export * from './admin/admin.constants';
export * from './admin/admin-account.dto';
export * from './admin/admin-key.dto';
export * from './admin/admin-member.dto';
export * from './admin/admin-index.dto';
export * from './admin/admin-job.dto';
export * from './admin/admin-audit.dto';
