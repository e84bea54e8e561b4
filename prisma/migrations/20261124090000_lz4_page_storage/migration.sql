-- A stored page's text, markdown and vector compressed with LZ4 instead of Postgres's default pglz (issue #14).
-- Compressing them with pglz was the largest single cost of storing a new page (6 % of its Postgres CPU; a perf
-- profile of `PageRepository.save` replaying 657 first stores of Git manual pages); with LZ4 a first store took
-- 8.2-8.4 ms of Postgres CPU against 9.2 ms (docs/benchmarks.md, round 11), and the same pages took the same space
-- (10 MB either way). Values already stored keep pglz until they are written again; Postgres reads both.
-- A server built without LZ4 support (it is an optional build flag; Debian's and the official images have it)
-- keeps pglz: this migration then changes nothing.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)) THEN
    ALTER TABLE "documents"
      ALTER COLUMN "text" SET COMPRESSION lz4,
      ALTER COLUMN "markdown" SET COMPRESSION lz4,
      ALTER COLUMN "search_vector" SET COMPRESSION lz4;
  END IF;
END
$$;
