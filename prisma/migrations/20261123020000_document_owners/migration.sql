-- Tenant visibility of stored pages (issue #16, item 5). A page fetched through the API belongs to the account that
-- fetched it and only that account's searches and extraction cache see it; a page with no owner (NULL) is shared:
-- corpora the operator loads (admin index import/crawl) and, with SHARED_INDEX=true, everything. Pages stored before
-- this migration have no recorded owner and stay shared.
ALTER TABLE "documents" ADD COLUMN "owner_account_id" UUID;
ALTER TABLE "documents" ADD CONSTRAINT "documents_owner_account_id_fkey"
    FOREIGN KEY ("owner_account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One copy per (URL, owner): two accounts fetching the same URL each get their own row, and the shared copy is the
-- one whose owner is NULL (NULLS NOT DISTINCT: at most one shared copy per URL, and ON CONFLICT finds it).
DROP INDEX "documents_url_key";
CREATE UNIQUE INDEX "documents_url_owner_account_id_key" ON "documents" ("url", "owner_account_id") NULLS NOT DISTINCT;

-- The owner travels with each posting, INCLUDEd in the lexeme index, so an unfiltered search skips other tenants'
-- postings inside the index-only scan that picks its candidates (no table visit, no candidate lost to a row that
-- is filtered out later). A document's owner never changes: it is part of the document's key.
ALTER TABLE "document_postings" ADD COLUMN "owner_account_id" UUID;
DROP INDEX "document_postings_lexeme_impact_idx";
CREATE INDEX "document_postings_lexeme_impact_idx" ON "document_postings" ("lexeme", "impact" DESC) INCLUDE ("document_id", "owner_account_id");

CREATE OR REPLACE FUNCTION sift_index_document_postings() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.search_vector IS NOT DISTINCT FROM OLD.search_vector AND NEW.word_count = OLD.word_count THEN
      RETURN NULL;
    END IF;
    DELETE FROM document_postings WHERE document_id = OLD.id;
  END IF;
  INSERT INTO document_postings (document_id, lexeme, impact, owner_account_id)
  SELECT NEW.id, u.lexeme, sift_posting_impact(u.weights, NEW.word_count), NEW.owner_account_id
  FROM unnest(NEW.search_vector) AS u;
  RETURN NULL;
END
$$;
