import type {
  AdminAccountDto,
  AdminAuditEventDto,
  AdminJobDto,
  AdminKeyDto,
  AdminPlanDto,
  MemberDto,
} from '@sift/api-contracts';
import type { AdminAuditRecord, AdminJobRecord } from '@sift/admin';
import type { AccountWithPlan, ApiKeyRecord, MemberRecord, PlanRecord } from '@sift/persistence';

/** The admin API's JSON: snake_case fields and ISO dates, as the rest of the API. */
export function planView(plan: PlanRecord): AdminPlanDto {
  return { id: plan.id, name: plan.name, monthly_credits: plan.monthlyCredits, price_usd_cents: plan.priceUsdCents, paid: plan.paid };
}

export function accountView(account: AccountWithPlan): AdminAccountDto {
  return {
    id: account.id,
    name: account.name,
    plan: account.planId,
    paygo_limit: account.paygoLimit,
    zero_data_retention: account.zeroDataRetention,
    created_at: account.createdAt.toISOString(),
  };
}

export function keyView(key: ApiKeyRecord): AdminKeyDto {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    last_four: key.lastFour,
    environment: key.environment,
    status: key.status,
    credit_limit: key.creditLimit,
    member_id: key.memberId,
    created_at: key.createdAt.toISOString(),
    expires_at: key.expiresAt?.toISOString() ?? null,
    deactivated_at: key.deactivatedAt?.toISOString() ?? null,
  };
}

export function memberView(member: MemberRecord): MemberDto {
  return { id: member.id, email: member.email, name: member.name, role: member.role, created_at: member.createdAt.toISOString() };
}

export function jobView(job: AdminJobRecord): AdminJobDto {
  return {
    id: job.id,
    kind: job.kind,
    state: job.state,
    parameters: job.parameters,
    progress: job.progress,
    result: job.result,
    error: job.error,
    actor: job.actor,
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    finished_at: job.finishedAt?.toISOString() ?? null,
  };
}

export function auditView(event: AdminAuditRecord): AdminAuditEventDto {
  return {
    id: event.id,
    occurred_at: event.occurredAt.toISOString(),
    finished_at: event.finishedAt?.toISOString() ?? null,
    channel: event.channel,
    actor: event.actor,
    action: event.action,
    parameters: event.parameters,
    outcome: event.outcome,
    error: event.error,
    account_id: event.accountId,
    job_id: event.jobId,
    request_id: event.requestId,
    client_ip: event.clientIp,
  };
}
