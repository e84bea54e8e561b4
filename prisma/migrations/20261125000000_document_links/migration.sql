-- The link graph of the stored pages, for the ranking's link prior (issue #15): one row per (page, page its content
-- links to), written by the store with the page (PageRepository.save: the links of the page's markdown, normalised as
-- stored URLs are, the page itself left out). The ranking counts, for each candidate, the pages the viewer may see
-- that link to it: a page the site's own pages point to is its reference for that subject (git-mv's manual page,
-- linked from git-add, git-commit and git, against a note that mentions renaming once). Targets are URLs, not
-- documents: a page may be linked before it is stored. The owner is copied from the linking page so the count reads
-- visibility inside the target index, as the postings do (migration 20261123020000).
-- No foreign key, like the postings (migration 20261124060000): the store writes these rows with the page and
-- sift_remove_document_postings removes them with it.
CREATE TABLE "document_links" (
  "document_id" UUID NOT NULL,
  "target_url" TEXT NOT NULL,
  "owner_account_id" UUID,
  CONSTRAINT "document_links_pkey" PRIMARY KEY ("document_id", "target_url")
);

CREATE INDEX "document_links_target_url_idx" ON "document_links" ("target_url") INCLUDE ("owner_account_id");

CREATE OR REPLACE FUNCTION sift_remove_document_postings() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM document_postings WHERE document_id = OLD.id;
  DELETE FROM document_links WHERE document_id = OLD.id;
  RETURN NULL;
END
$$;
