-- An impact-ordered inverted index beside the GIN index: one row per (document, lexeme) with the lexeme's BM25F
-- term weight in that document, so a search reads the best postings of each query lexeme straight from a btree
-- (index-only) instead of detoasting the tsvector of every page that contains a rare query word. The GIN index
-- stays for filtered searches and lexeme counts; the tsvector stays the source of truth for exact scoring.

-- The part of a lexeme's BM25F score that depends on the document (the idf multiplies it at query time): the
-- field-weighted term frequency (title 2, description 1.5, body 1: tsvector weights A, B, D) saturated with
-- k1 1.2 and length normalisation b 0.5 against a fixed reference length of 500 words. It only orders postings
-- to choose candidates; exact scoring uses the live corpus statistics.
CREATE FUNCTION sift_posting_impact(weights TEXT[], word_count INTEGER) RETURNS REAL
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (f / (f + 1.2 * (0.5 + 0.5 * greatest(word_count, 1) / 500.0)))::real
  FROM (SELECT 2 * cardinality(array_positions(weights, 'A'))
             + 1.5 * cardinality(array_positions(weights, 'B'))
             + cardinality(array_positions(weights, 'D')) AS f) AS frequency
$$;

CREATE TABLE "document_postings" (
    "document_id" UUID NOT NULL,
    -- Byte order: lexemes are only ever compared for equality, and locale-aware comparison made every index
    -- descent several times slower.
    "lexeme" TEXT COLLATE "C" NOT NULL,
    "impact" REAL NOT NULL,

    CONSTRAINT "document_postings_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "documents"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- INCLUDE keeps the document id in the index, so reading a lexeme's best postings never visits the table.
CREATE INDEX "document_postings_lexeme_impact_idx" ON "document_postings" ("lexeme", "impact" DESC) INCLUDE ("document_id");
-- For the trigger's and the foreign key's deletes only (a document's postings are never looked up one by one):
-- deduplicated, a few bytes per posting. No primary key: a tsvector's lexemes are unique, so are the rows.
CREATE INDEX "document_postings_document_id_idx" ON "document_postings" ("document_id");

-- Kept in step with documents.search_vector by a trigger, so every writer (document store, imports, SQL) indexes.
CREATE FUNCTION sift_index_document_postings() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.search_vector IS NOT DISTINCT FROM OLD.search_vector AND NEW.word_count = OLD.word_count THEN
      RETURN NULL;
    END IF;
    DELETE FROM document_postings WHERE document_id = OLD.id;
  END IF;
  INSERT INTO document_postings (document_id, lexeme, impact)
  SELECT NEW.id, u.lexeme, sift_posting_impact(u.weights, NEW.word_count)
  FROM unnest(NEW.search_vector) AS u;
  RETURN NULL;
END
$$;

CREATE TRIGGER "documents_index_postings"
AFTER INSERT OR UPDATE OF "title", "description", "text", "language", "word_count" ON "documents"
FOR EACH ROW EXECUTE FUNCTION sift_index_document_postings();

-- Pages stored before this migration.
INSERT INTO "document_postings" ("document_id", "lexeme", "impact")
SELECT d.id, u.lexeme, sift_posting_impact(u.weights, d.word_count)
FROM "documents" d CROSS JOIN LATERAL unnest(d.search_vector) AS u;
