-- Each stored chunk's vector from the operator's embedding model (EMBEDDINGS_MODEL, docs/models.md), written off the
-- request path by the chunk embedder, read by the local index's dense retrieval. One row per chunk: the model and the
-- vector's size are recorded with it, so a chunk whose row names another model (or size) is embedded again.
-- real[] rather than pgvector's type, so the table exists on every Postgres; where pgvector is installed, an HNSW
-- index over `embedding::vector(<dimension>)` is made for the model in use (ChunkVectorStore), whose cast reads
-- the same column.
CREATE TABLE "document_chunk_embeddings" (
    "document_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "model" TEXT NOT NULL,
    "dimension" INTEGER NOT NULL,
    "embedding" REAL[] NOT NULL,
    "embedded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "document_chunk_embeddings_pkey" PRIMARY KEY ("document_id", "position"),
    -- A chunk removed (its page deleted, or cut shorter) takes its vector with it.
    CONSTRAINT "document_chunk_embeddings_chunk_fkey" FOREIGN KEY ("document_id", "position")
        REFERENCES "document_chunks"("document_id", "position") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "document_chunk_embeddings_dimension_check" CHECK (cardinality("embedding") = "dimension")
);

-- A chunk written again with other words (the store upserts chunks by position) loses its vector, so it is embedded
-- again and never ranks by what it used to say. Unchanged chunks keep theirs.
CREATE FUNCTION sift_forget_chunk_embedding() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM document_chunk_embeddings WHERE document_id = OLD.document_id AND position = OLD.position;
  RETURN NULL;
END
$$;

CREATE TRIGGER document_chunks_forget_embedding AFTER UPDATE OF content ON "document_chunks"
FOR EACH ROW WHEN (OLD.content IS DISTINCT FROM NEW.content) EXECUTE FUNCTION sift_forget_chunk_embedding();

-- A count of the writes to the vectors, read by every process that holds them in memory (the dense index of the
-- gateway and the research worker) to know when to load them again; a sequence, as sift_document_changes.
CREATE SEQUENCE sift_chunk_embedding_changes;

CREATE FUNCTION sift_count_chunk_embedding_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('sift_chunk_embedding_changes');
  RETURN NULL;
END
$$;

CREATE TRIGGER document_chunk_embeddings_count_changes AFTER INSERT OR UPDATE OR DELETE ON "document_chunk_embeddings"
FOR EACH STATEMENT EXECUTE FUNCTION sift_count_chunk_embedding_change();

-- Which process embeds now: the workers that run the embedder take this one row's lease (renewed per batch), so
-- several replicas never send the same chunks to the model.
CREATE TABLE "chunk_embedding_leases" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "holder" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "chunk_embedding_leases_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "chunk_embedding_leases_one_row" CHECK ("id" = 1)
);

-- pgvector where the server has it (the compose file's Postgres image does); without it, or without the right to
-- create it, nothing fails: dense retrieval scans the vectors in memory instead.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS vector;
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'pgvector is available but this role may not create it; dense retrieval scans in memory';
    END;
  END IF;
END
$$;
