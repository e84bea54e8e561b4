-- A page fetched again with the same content only has its fetched_at (and source) moved (PageRepository.save),
-- and that update should touch no index and re-index nothing. Until now every save rewrote the row, its vector and
-- its chunks: the GIN index over search_vector got all of the page's lexemes again (~10 ms for a manual page), and
-- an update of fetched_at alone would still write every index of the table, fetched_at having its own.
-- Nothing reads documents by fetched_at through an index (the extraction cache finds the row by URL, the time
-- filters read coalesce(published_date, fetched_at)), so that index goes, and a tenth of each heap page is kept free
-- so the new row version fits beside the old one (a heap-only update).
DROP INDEX "documents_fetched_at_idx";
ALTER TABLE "documents" SET (fillfactor = 90);

-- The version of the indexing code a row's vector, word count and chunks were made with (PageRepository's
-- INDEX_VERSION): a page is only refreshed in place when it was indexed by the current code; rows stored before this
-- migration have 0 and are indexed again when next stored.
ALTER TABLE "documents" ADD COLUMN "index_version" INTEGER NOT NULL DEFAULT 0;
