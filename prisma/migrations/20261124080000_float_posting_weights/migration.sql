-- The posting weights in binary floating point (issue #14). sift_field_frequency and sift_posting_impact
-- (migration 20261124030000) computed with numeric constants (0.5, 8.0, 1.2 are numeric literals in SQL), so every
-- posting of a stored page went through numeric arithmetic, and sift_posting_impact, written with a sub-select, was
-- not inlined: a function call per posting. For the 438 Git pages of the crawl benchmark (158,508 postings) the
-- frequencies and impacts took 878 ms, 2.0 ms of a page's ~12 ms of Postgres CPU when it is first stored; in double
-- precision, inlined, 233 ms. The formulas are unchanged and so are the stored values (cast to real, every one of
-- those postings compared equal), so nothing is indexed again.

CREATE OR REPLACE FUNCTION sift_field_frequency(title_count INTEGER, description_count INTEGER, headings_count INTEGER,
                                                title_length INTEGER, description_length INTEGER, headings_length INTEGER) RETURNS REAL
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (2.0::float8 * title_count / (0.5::float8 + 0.5::float8 * title_length / 8.0::float8)
        + 1.5::float8 * description_count / (0.5::float8 + 0.5::float8 * description_length / 20.0::float8)
        + 1.5::float8 * headings_count / (0.5::float8 + 0.5::float8 * headings_length / 30.0::float8))::real
$$;

-- One expression, no sub-select, so the planner inlines it into the trigger's INSERT; the term frequency is written
-- twice for that.
CREATE OR REPLACE FUNCTION sift_posting_impact(field_frequency REAL, body_frequency REAL, word_count INTEGER) RETURNS REAL
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ((field_frequency + body_frequency / (0.5::float8 + 0.5::float8 * greatest(word_count, 1) / 500.0::float8))
        / (field_frequency + body_frequency / (0.5::float8 + 0.5::float8 * greatest(word_count, 1) / 500.0::float8) + 1.2::float8))::real
$$;
