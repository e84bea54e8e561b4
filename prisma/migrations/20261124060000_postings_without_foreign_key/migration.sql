-- Postings are derived rows: the trigger documents_index_postings writes them for the document row it fires on, and
-- nothing else writes them. Their foreign key to documents made Postgres check every inserted posting against
-- documents (a row lock lookup per lexeme, about a fifth of storing a new page's 800 postings; measured in
-- docs/benchmarks.md, round 10) without protecting anything the trigger does not. The cascade it gave on delete is
-- now a trigger of its own.
ALTER TABLE "document_postings" DROP CONSTRAINT "document_postings_document_id_fkey";

CREATE FUNCTION sift_remove_document_postings() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM document_postings WHERE document_id = OLD.id;
  RETURN NULL;
END
$$;

-- Row by row, as the cascade was: deletes through accounts' cascade to documents fire it too.
CREATE TRIGGER documents_remove_postings AFTER DELETE ON "documents"
FOR EACH ROW EXECUTE FUNCTION sift_remove_document_postings();
