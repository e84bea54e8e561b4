-- BM25F with a length normalisation per field, and the page's headings as a field (issue #15). Until now a posting
-- held one field-weighted term frequency (title 2, description 1.5, body 1), normalised at query time by the length
-- of the whole page: a title word of a 10,000-word manual page was damped as much as a word deep in its body, and
-- long pages that use every word of a question somewhere outranked the short page whose title or summary answers
-- it. BM25F (Robertson, Zaragoza and Taylor, "Simple BM25 extension to multiple weighted fields", CIKM 2004)
-- normalises each field's frequency by that field's own length before the fields are added and saturated:
--   tf~ = Σ_f weight_f × tf_f / ((1 - b_f) + b_f × length_f / average_length_f),  score = idf × tf~ / (k1 + tf~)
-- The title, description and headings parts depend on the page alone and are computed here, when the page is
-- indexed; the body part is normalised at query time against live averages (the page's site's, as before).

-- The headings (h1–h3, from the page's markdown) join the vector with weight C, which was unused; A title,
-- B description, D body as before. Positions run in this order, so the short fields never reach tsvector's
-- position cap (16,383), which a long body does.
DROP FUNCTION sift_document_vector(TEXT, TEXT, TEXT, TEXT);
CREATE FUNCTION sift_document_vector(language TEXT, title TEXT, description TEXT, headings TEXT, body TEXT) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector(sift_search_config(language), title), 'A') ||
         setweight(to_tsvector(sift_search_config(language), coalesce(description, '')), 'B') ||
         setweight(to_tsvector(sift_search_config(language), left(coalesce(headings, ''), 20000)), 'C') ||
         setweight(to_tsvector(sift_search_config(language), left(body, 200000)), 'D')
$$;

-- The short fields' share of tf~: each field's occurrences (weight title 2, description 1.5, headings 1.5; the
-- weights the single-frequency postings used, headings ranked with the description) over its length against a
-- reference length (indexed words: title 8, description 20, headings 30, about the averages of titles and meta
-- descriptions on the web pages and Cranfield of the quality benchmark), with b 0.5 as for the body.
CREATE FUNCTION sift_field_frequency(title_count INTEGER, description_count INTEGER, headings_count INTEGER,
                                     title_length INTEGER, description_length INTEGER, headings_length INTEGER) RETURNS REAL
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (2.0 * title_count / (0.5 + 0.5 * title_length / 8.0)
        + 1.5 * description_count / (0.5 + 0.5 * description_length / 20.0)
        + 1.5 * headings_count / (0.5 + 0.5 * headings_length / 30.0))::real
$$;

-- Per lexeme of a document vector: the short fields' normalised frequency and the body's raw count (occurrences
-- with weight D). A field's length is the number of its indexed words: the positions carrying its weight.
CREATE FUNCTION sift_vector_field_frequencies(vector tsvector)
RETURNS TABLE (lexeme TEXT, field_frequency REAL, body_frequency REAL)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  WITH counts AS (
    SELECT u.lexeme,
           coalesce(cardinality(array_positions(u.weights, 'A')), 0) AS title_count,
           coalesce(cardinality(array_positions(u.weights, 'B')), 0) AS description_count,
           coalesce(cardinality(array_positions(u.weights, 'C')), 0) AS headings_count,
           coalesce(cardinality(array_positions(u.weights, 'D')), 0) AS body_count
    FROM unnest(vector) AS u
  ),
  lengths AS (
    SELECT sum(title_count)::int AS title_length, sum(description_count)::int AS description_length,
           sum(headings_count)::int AS headings_length
    FROM counts
  )
  SELECT c.lexeme,
         sift_field_frequency(c.title_count, c.description_count, c.headings_count, l.title_length, l.description_length, l.headings_length),
         c.body_count::real
  FROM counts c CROSS JOIN lengths l
$$;

-- The impact that orders a lexeme's postings to choose candidates: tf~ with the body normalised against a fixed
-- reference length of 500 words (as before), saturated with k1 1.2. Exact scoring reads the two frequencies.
CREATE FUNCTION sift_posting_impact(field_frequency REAL, body_frequency REAL, word_count INTEGER) RETURNS REAL
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (f / (f + 1.2))::real
  FROM (SELECT field_frequency + body_frequency / (0.5 + 0.5 * greatest(word_count, 1) / 500.0) AS f) AS frequency
$$;

ALTER TABLE "document_postings" ADD COLUMN "field_frequency" REAL NOT NULL DEFAULT 0,
                                ADD COLUMN "body_frequency" REAL NOT NULL DEFAULT 0;
-- Exact scoring probes (document, lexeme) index-only: the frequencies travel in the index.
DROP INDEX "document_postings_document_id_lexeme_idx";
CREATE INDEX "document_postings_document_id_lexeme_idx" ON "document_postings" ("document_id", "lexeme")
  INCLUDE ("impact", "field_frequency", "body_frequency");

CREATE OR REPLACE FUNCTION sift_index_document_postings() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.search_vector IS NOT DISTINCT FROM OLD.search_vector AND NEW.word_count = OLD.word_count THEN
      RETURN NULL;
    END IF;
    DELETE FROM document_postings WHERE document_id = OLD.id;
  END IF;
  INSERT INTO document_postings (document_id, lexeme, impact, owner_account_id, field_frequency, body_frequency)
  SELECT NEW.id, f.lexeme, sift_posting_impact(f.field_frequency, f.body_frequency, NEW.word_count),
         NEW.owner_account_id, f.field_frequency, f.body_frequency
  FROM sift_vector_field_frequencies(NEW.search_vector) AS f;
  RETURN NULL;
END
$$;

-- The single-frequency encoding is gone: its impact function and its inverse.
DROP FUNCTION sift_posting_frequency(REAL, INTEGER);
DROP FUNCTION sift_posting_impact(TEXT[], INTEGER);

-- Pages stored before this migration: postings again from their vectors (their headings join when a page is stored
-- again, or by `admin index resegment`).
TRUNCATE "document_postings";
INSERT INTO "document_postings" ("document_id", "lexeme", "impact", "owner_account_id", "field_frequency", "body_frequency")
SELECT d.id, f.lexeme, sift_posting_impact(f.field_frequency, f.body_frequency, d.word_count), d.owner_account_id,
       f.field_frequency, f.body_frequency
FROM "documents" d CROSS JOIN LATERAL sift_vector_field_frequencies(d.search_vector) AS f;
