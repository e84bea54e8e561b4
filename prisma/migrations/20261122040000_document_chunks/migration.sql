-- Each stored document's text cut into the chunks search results show (at most 500 characters, at heading,
-- paragraph, sentence or word boundaries), written by the document store with the document. A search picks the
-- best chunks of the pages it shows in the ranking statement itself, from each chunk's own tsvector, instead of
-- the gateway loading, cutting and ranking every page's whole text per request. Pages stored before this
-- migration have no chunks until they are stored again; searches cut their text as before.
CREATE TABLE "document_chunks" (
    "document_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "content" TEXT NOT NULL,
    -- Words in the chunk (the tokenizer of @sift/ranking), for BM25's length normalisation.
    "word_count" INTEGER NOT NULL,
    "vector" tsvector NOT NULL,

    CONSTRAINT "document_chunks_pkey" PRIMARY KEY ("document_id", "position"),
    CONSTRAINT "document_chunks_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "documents"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
