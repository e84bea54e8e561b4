-- The body of a page's vector made from its chunks' vectors: a first store parses the page's text once (issue #14).
-- The statement that stores a page parsed its text twice: for the body of search_vector (sift_document_vector) and
-- for its chunks, which cut the same text into pieces without overlap, each with its own vector; to_tsvector was
-- 38 % of a first store's Postgres CPU (a perf profile of `PageRepository.save`). Now the body is the chunks'
-- vectors end to end: a first store of the 222 Git manual pages (bench/crawl/store-replay.ts, 666 stores a run, six
-- runs each way, alternated) took 6.5-7.2 ms of Postgres CPU a page against 8.1-9.0 ms.
--
-- What changes, on those pages' bodies (83,413 lexemes): positions run a little lower after a chunk that ends in
-- stop words, which no longer count, and neighbouring lexemes (what phrase matching reads) stay neighbours (below the
-- position cap, all but 2 of 121,829 pairs). Each lexeme's count, the body frequency of its posting, is the same
-- except:
-- - Postgres's parser reads what follows a literal "<style>" or "<script>" as an HTML element's content and skips
--   it, to the end of what it parses: the page's whole text before, now the rest of that chunk (git-switch's
--   "--conflict=<style>"; those 4 bodies gain 1,889 lexemes and 179 counts);
-- - a lexeme keeps at most 256 positions concatenated, 255 parsed (9 lexemes);
-- - past position 16,383 (tsvector's cap) a lexeme keeps one position; the positions being lower, the 3 pages longer
--   than that keep a few more occurrences below it (53 lexemes);
-- - a word at a chunk's start is parsed without the text before it (2 lexemes: "~/.gitconfig", "/.gitconfig").
-- In Chinese, Japanese and Thai each chunk is cut into words on its own (segmentWords): where the chunker cuts a
-- paragraph written without spaces at 500 characters through a word, the body has the two halves, as the chunks had.
-- The 200,000 characters are the text's own now, not its spaced form's (which held about 130,000 of a Chinese text).
-- Pages stored before keep their vectors, which stay valid, until they are stored again.

-- The body of a page's vector from its chunks' vectors and texts, in order: the vectors of the chunks that start
-- within the first 200,000 characters of the chunks end to end (the text but the blanks between chunks; as
-- sift_document_vector's text body read at most 200,000 characters: a chunk is whole, so at most 499 more are read,
-- and no word is cut at the limit), concatenated.
-- tsvector's || shifts the right operand's positions past the left's last one. Concatenated in pairs, level by
-- level, not one after another: each || copies both operands, so one after another copies the growing body once per
-- chunk (git-config's 549 chunks: 26 ms one after another, as long as parsing its text, 6 ms in pairs).
CREATE FUNCTION sift_body_vector(chunks TEXT[], vectors tsvector[]) RETURNS tsvector
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  indexed tsvector[] := '{}';
  merged tsvector[];
  start INTEGER := 0;
BEGIN
  FOR chunk IN 1 .. coalesce(cardinality(vectors), 0) LOOP
    EXIT WHEN start >= 200000;
    indexed := array_append(indexed, vectors[chunk]);
    start := start + coalesce(length(chunks[chunk]), 0);
  END LOOP;
  IF cardinality(indexed) = 0 THEN
    RETURN ''::tsvector;
  END IF;
  WHILE cardinality(indexed) > 1 LOOP
    merged := '{}';
    FOR pair IN 1 .. cardinality(indexed) BY 2 LOOP
      merged := array_append(merged, CASE WHEN pair < cardinality(indexed) THEN indexed[pair] || indexed[pair + 1]
                                          ELSE indexed[pair] END);
    END LOOP;
    indexed := merged;
  END LOOP;
  RETURN indexed[1];
END
$$;

-- A page's vector with its body given as a vector (sift_body_vector): the title, description and headings as in
-- sift_document_vector(TEXT, TEXT, TEXT, TEXT, TEXT) of migration 20261124030000, which stays for the rows it made.
CREATE FUNCTION sift_document_vector(language TEXT, title TEXT, description TEXT, headings TEXT, body tsvector) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector(sift_search_config(language), title), 'A') ||
         setweight(to_tsvector(sift_search_config(language), coalesce(description, '')), 'B') ||
         setweight(to_tsvector(sift_search_config(language), left(coalesce(headings, ''), 20000)), 'C') ||
         setweight(body, 'D')
$$;
