-- Chinese, Japanese, Thai and the other scripts written without spaces (issue #15): Postgres' text search parser
-- cuts words at spaces and punctuation, so a Chinese sentence was one lexeme and a query word inside it never
-- matched. The document store now cuts those runs into words (Intl.Segmenter, @sift/ranking segmentWords) before
-- the text reaches to_tsvector, and writes search_vector itself from that spaced text; the stored title and text
-- stay as the page has them. search_vector is therefore no longer generated: DROP EXPRESSION keeps every value
-- (no table rewrite), and pages stored earlier keep their vectors until they are stored again.
ALTER TABLE "documents" ALTER COLUMN "search_vector" DROP EXPRESSION;

-- The expression the generated column had (migration 20261122010000), now called by the document store's writing
-- statement with the spaced title, description and text: title weight A, description B, text D, in the
-- document's own language, the text capped so a huge page cannot exceed tsvector's 1 MB limit.
CREATE FUNCTION sift_document_vector(language TEXT, title TEXT, description TEXT, body TEXT) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector(sift_search_config(language), title), 'A') ||
         setweight(to_tsvector(sift_search_config(language), coalesce(description, '')), 'B') ||
         setweight(to_tsvector(sift_search_config(language), left(body, 200000)), 'D')
$$;

-- The postings follow search_vector whoever writes it (the trigger compares the old and new vector).
DROP TRIGGER "documents_index_postings" ON "documents";
CREATE TRIGGER "documents_index_postings"
AFTER INSERT OR UPDATE OF "title", "description", "text", "language", "word_count", "search_vector" ON "documents"
FOR EACH ROW EXECUTE FUNCTION sift_index_document_postings();
