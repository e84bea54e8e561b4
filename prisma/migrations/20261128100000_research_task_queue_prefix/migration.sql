-- The QUEUE_PREFIX a research task's job was queued under. Redis holds only the jobs (compose runs it without
-- persistence): after it restarts, the research worker's sweep queues the job of every unfinished task again from its
-- row, and only for the tasks of its own prefix, since deployments (and test runs) on other prefixes may share the
-- database. NULL for tasks stored before this migration: those are not queued again.
ALTER TABLE "research_tasks" ADD COLUMN "queue_prefix" TEXT;
