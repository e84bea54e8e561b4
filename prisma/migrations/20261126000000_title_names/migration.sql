-- The names a page's title gives it (issue #15): its segments of two to four words, lowercased, punctuation as spaces
-- (titleNamesOf: git-clean(1) is "git clean"). The ranking boosts a candidate whose name the query contains as a run of
-- words, so "How do git clean and git reset --hard differ" finds the two manual pages among the pages that use the
-- same words more often. Written by the store with the page; pages stored before this migration have none until they
-- are stored again or `admin index resegment` runs (the names are made by the application, not in SQL, so the store
-- and the query agree on what a word is).
ALTER TABLE "documents" ADD COLUMN "title_names" TEXT[] NOT NULL DEFAULT '{}';
