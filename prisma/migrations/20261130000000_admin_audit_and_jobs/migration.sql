-- The admin API and the admin command line (issue #39). admin_audit_events records every admin action: who (the
-- operator credential's fingerprint, or the command line's user), what (the action and its parameters, never a
-- secret), when, and how it ended. admin_jobs holds the index jobs the admin API runs in the background (import,
-- crawl, rechunk, resegment, embed): any gateway replica answers GET /admin/jobs/{id} from here.
CREATE TABLE "admin_audit_events" (
    "id" BIGSERIAL NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "channel" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "parameters" JSONB NOT NULL,
    "outcome" TEXT NOT NULL,
    "error" TEXT,
    "account_id" UUID,
    "job_id" UUID,
    "request_id" TEXT,
    "client_ip" TEXT,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "admin_audit_events_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "admin_audit_events_occurred_at_idx" ON "admin_audit_events" ("occurred_at" DESC);
-- No foreign key to accounts: the record of what was done to an account outlives the account.
CREATE INDEX "admin_audit_events_account_id_occurred_at_idx" ON "admin_audit_events" ("account_id", "occurred_at" DESC);

CREATE TABLE "admin_jobs" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "parameters" JSONB NOT NULL,
    "progress" JSONB,
    "result" JSONB,
    "error" TEXT,
    "actor" TEXT NOT NULL,
    "runner" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "admin_jobs_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "admin_jobs_created_at_idx" ON "admin_jobs" ("created_at" DESC);
-- The sweep that fails jobs whose gateway stopped reads only the unfinished ones.
CREATE INDEX "admin_jobs_heartbeat_at_unfinished_idx" ON "admin_jobs" ("heartbeat_at")
    WHERE "state" IN ('queued', 'running');
