-- Whether a stored page's description is its own (a meta description) or the summary line of its text: a page fetched
-- again is only refreshed when its index inputs are the same (PageRepository.save), and decided before the page is
-- prepared for the index, where the summary line would be computed. Rows stored before have false: a page with a
-- meta description among them is indexed in full once more when next stored, which sets it.
ALTER TABLE "documents" ADD COLUMN "description_from_page" BOOLEAN NOT NULL DEFAULT false;
