-- A count of the changes to what the local index ranks with: each stored page added or removed, and each page whose
-- vector was written again. The index's corpus statistics (document counts, lexeme document frequencies, lengths,
-- the sites' link priors) are a snapshot reused across searches; a search reads this count, one sequence read, and
-- takes new statistics first when the corpus has changed by a good share since the snapshot (CorpusSnapshotCache).
-- An import or a crawl writes from another process (the admin CLI, the crawler worker) than the one that searches:
-- the count is kept by the database so every process sees it at once. A sequence, not a counter row: concurrent
-- saves do not wait on one another, and a rolled-back change counting once is harmless for a measure of change.
CREATE SEQUENCE sift_document_changes;

CREATE FUNCTION sift_count_document_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('sift_document_changes');
  RETURN NULL;
END
$$;

-- UPDATE OF search_vector: a page stored again with new content; a page only marked fetched again does not count.
CREATE TRIGGER documents_count_changes AFTER INSERT OR DELETE OR UPDATE OF search_vector ON "documents"
FOR EACH ROW EXECUTE FUNCTION sift_count_document_change();
