-- Document frequencies the corpus snapshot lacks are counted live, per (configuration, lexeme), among the pages of
-- that configuration (language). A query word looked up under a configuration whose pages are few (a handful of
-- pages filed as German in an English index) matched most of the index through the GIN index, and each match was
-- read from the heap only to be dropped for its language: about 9 ms a lexeme on 10,000 pages, several per search.
-- With the configuration indexed, Postgres intersects the two (BitmapAnd) and reads only that language's matches.
CREATE INDEX "documents_search_config_idx" ON "documents" (sift_search_config("language"));
