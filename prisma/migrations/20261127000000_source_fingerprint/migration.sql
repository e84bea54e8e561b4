-- The response a stored page was extracted from (issue #14): a digest of the HTTP response's final URL, status and
-- body as decoded, and of the extraction code's version (sourceFingerprintOf in the extractor worker), written by the extractor
-- with the page it extracted from that response without a browser. A later extraction of the same URL whose response
-- has the same digest takes the stored page instead of parsing the bytes again. NULL for pages stored any other way
-- (crawls, imports, browser renders, pages stored before this migration): they are never reused so.
ALTER TABLE "documents" ADD COLUMN "source_fingerprint" TEXT;
