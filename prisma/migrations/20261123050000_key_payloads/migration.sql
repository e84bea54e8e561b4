-- Enterprise key payloads (issue #12, item 3). A key made with ttl_hours stops authenticating at expires_at (NULL:
-- never); keys made by one POST /generate-keys share its request id, so POST /deactivate-keys can retire the batch.
ALTER TABLE "api_keys" ADD COLUMN "expires_at" TIMESTAMPTZ(3);
ALTER TABLE "api_keys" ADD COLUMN "generation_request_id" TEXT;

CREATE INDEX "api_keys_account_id_generation_request_id_idx" ON "api_keys" ("account_id", "generation_request_id");
