-- Research tasks (issue #11): POST /research stores the task here and enqueues a job that names it; the research
-- worker records its progress (checkpoint) and its report here, and any gateway answers GET /research/{id} from it.
CREATE TYPE "ResearchStatus" AS ENUM ('pending', 'in_progress', 'completed', 'failed');
CREATE TYPE "ResearchMode" AS ENUM ('llm', 'extractive');

CREATE TABLE "research_tasks" (
    "request_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "api_key_id" UUID,
    "project_id" UUID,
    "input" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "resolved_model" TEXT,
    "options" JSONB NOT NULL,
    "status" "ResearchStatus" NOT NULL DEFAULT 'pending',
    "content" JSONB,
    "sources" JSONB,
    "error" TEXT,
    "mode" "ResearchMode",
    "checkpoint" JSONB,
    "work" JSONB,
    "reservation" JSONB,
    "credits" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "deadline_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "research_tasks_pkey" PRIMARY KEY ("request_id")
);

CREATE INDEX "research_tasks_account_id_created_at_idx" ON "research_tasks" ("account_id", "created_at");

-- The sweep that fails overdue tasks reads only the unfinished ones.
CREATE INDEX "research_tasks_deadline_at_unfinished_idx" ON "research_tasks" ("deadline_at")
    WHERE "status" IN ('pending', 'in_progress');

ALTER TABLE "research_tasks" ADD CONSTRAINT "research_tasks_account_id_fkey"
    FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
