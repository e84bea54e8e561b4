-- The icon the page declares (`<link rel="icon">`), so a stored page served again (the extraction cache, a response
-- whose digest matches: migration 20261127000000) names the icon its extraction found, not `/favicon.ico`. NULL for a
-- page that declares none and for pages stored before this migration: then the conventional `/favicon.ico`.
ALTER TABLE "documents" ADD COLUMN "favicon" TEXT;
