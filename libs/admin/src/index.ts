// The operator's administration of a Sift deployment: accounts, plans, keys, members and the local index, with every
// action on the audit trail. The admin API (apps/gateway/src/admin) and the command line (apps/admin-cli) both call
// these services, so what one can do the other can, with the same checks and the same record.
export { AdminError, type AdminErrorKind } from './admin-error';
export { commandLineActor, operatorTokenActor, type AdminActor } from './admin-actor';
export { AdminAudit, type AuditedAction, type AuditSubject } from './audit/admin-audit';
export { AdminAuditRepository, type AdminAuditQuery, type AdminAuditRecord, type AdminOutcome } from './audit/admin-audit.repository';
export { AccountsAdmin, DEFAULT_PLAN, type AccountChanges, type NewAccount } from './accounts-admin.service';
export { KeysAdmin, type CreatedKey, type KeyReference, type NewKey } from './keys-admin.service';
export { MembersAdmin, type NewMember } from './members-admin.service';
export { CRAWL_DEFAULTS, CRAWL_LIMITS, IndexAdmin, type CrawlRequest, type IndexProgress, type IndexReport, type IndexRun } from './index-admin.service';
export { AdminJobRepository, type AdminJobKind, type AdminJobRecord, type AdminJobState } from './jobs/admin-job.repository';
export { AdminJobRunner, type AdminJobRunnerOptions, type AdminJobWork } from './jobs/admin-job-runner';
export { createAdminServices, type AdminServices } from './admin-services';
