-- CreateEnum
CREATE TYPE "DocumentSource" AS ENUM ('extract', 'crawl', 'import');

-- CreateTable
CREATE TABLE "documents" (
    "id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "final_url" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "title" TEXT NOT NULL DEFAULT '',
    "description" TEXT,
    "markdown" TEXT NOT NULL DEFAULT '',
    "text" TEXT NOT NULL DEFAULT '',
    "language" TEXT,
    "published_date" TIMESTAMPTZ(3),
    "fetched_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "content_hash" TEXT NOT NULL,
    "is_news" BOOLEAN NOT NULL DEFAULT false,
    "is_unsafe" BOOLEAN NOT NULL DEFAULT false,
    "country_hints" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "images" JSONB NOT NULL DEFAULT '[]',
    "source" "DocumentSource" NOT NULL,
    "word_count" INTEGER NOT NULL DEFAULT 0,
    "search_vector" tsvector,

    CONSTRAINT "documents_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "documents_url_key" ON "documents"("url");

-- CreateIndex
CREATE INDEX "documents_domain_idx" ON "documents"("domain");

-- CreateIndex
CREATE INDEX "documents_published_date_idx" ON "documents"("published_date");

-- CreateIndex
CREATE INDEX "documents_fetched_at_idx" ON "documents"("fetched_at");

-- Not expressible in Prisma: the text search configuration of a document's language (stemming and stop
-- words), used both by the generated column below and by queries. IMMUTABLE so a generated column may use it.
CREATE FUNCTION sift_search_config(language TEXT) RETURNS regconfig
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE lower(split_part(coalesce(language, ''), '-', 1))
    WHEN 'ar' THEN 'arabic'::regconfig
    WHEN 'hy' THEN 'armenian'::regconfig
    WHEN 'eu' THEN 'basque'::regconfig
    WHEN 'ca' THEN 'catalan'::regconfig
    WHEN 'da' THEN 'danish'::regconfig
    WHEN 'nl' THEN 'dutch'::regconfig
    WHEN 'en' THEN 'english'::regconfig
    WHEN 'fi' THEN 'finnish'::regconfig
    WHEN 'fr' THEN 'french'::regconfig
    WHEN 'de' THEN 'german'::regconfig
    WHEN 'el' THEN 'greek'::regconfig
    WHEN 'hi' THEN 'hindi'::regconfig
    WHEN 'hu' THEN 'hungarian'::regconfig
    WHEN 'id' THEN 'indonesian'::regconfig
    WHEN 'ga' THEN 'irish'::regconfig
    WHEN 'it' THEN 'italian'::regconfig
    WHEN 'lt' THEN 'lithuanian'::regconfig
    WHEN 'ne' THEN 'nepali'::regconfig
    WHEN 'no' THEN 'norwegian'::regconfig
    WHEN 'nb' THEN 'norwegian'::regconfig
    WHEN 'nn' THEN 'norwegian'::regconfig
    WHEN 'pt' THEN 'portuguese'::regconfig
    WHEN 'ro' THEN 'romanian'::regconfig
    WHEN 'ru' THEN 'russian'::regconfig
    WHEN 'sr' THEN 'serbian'::regconfig
    WHEN 'es' THEN 'spanish'::regconfig
    WHEN 'sv' THEN 'swedish'::regconfig
    WHEN 'ta' THEN 'tamil'::regconfig
    WHEN 'tr' THEN 'turkish'::regconfig
    WHEN 'yi' THEN 'yiddish'::regconfig
    ELSE 'simple'::regconfig
  END
$$;

-- Not expressible in Prisma: search_vector is generated from title (weight A), description (B) and text (D)
-- in the document's own language. Text is capped so a huge page cannot exceed tsvector's 1 MB limit.
ALTER TABLE "documents" DROP COLUMN "search_vector";
ALTER TABLE "documents" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector(sift_search_config("language"), "title"), 'A') ||
    setweight(to_tsvector(sift_search_config("language"), coalesce("description", '')), 'B') ||
    setweight(to_tsvector(sift_search_config("language"), left("text", 200000)), 'D')
) STORED;

-- fastupdate off: a pending list would be scanned linearly by every search until the next vacuum, which after a
-- bulk import costs milliseconds per query lexeme; searches matter more than insert speed here.
CREATE INDEX "documents_search_vector_idx" ON "documents" USING GIN ("search_vector") WITH (fastupdate = off);
