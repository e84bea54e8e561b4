import { queryRows } from '@sift/persistence';
import type { PrismaClient } from '@sift/persistence';

/** A stored chunk without a vector of the current model: what the embedder sends to the model. */
export interface PendingChunk {
  document_id: string;
  position: number;
  content: string;
  /** md5 of the content read, so a vector is written only if the chunk still says the same. */
  content_hash: string;
}

/** A vector to store for a chunk, computed from the content whose md5 is contentHash. */
export interface ChunkVector {
  documentId: string;
  position: number;
  contentHash: string;
  vector: Float32Array;
}

/** The vectors of one model, as the in-memory index holds them: a row per chunk, unit length, end to end. */
export interface LoadedVectors {
  dimension: number;
  documentIds: string[];
  positions: Int32Array;
  /** Each row's owner account (the page's), null for shared pages: the visibility rule of the page store. */
  owners: (string | null)[];
  /** rows × dimension components, each row scaled to unit length (cosine similarity is then a dot product). */
  matrix: Float32Array;
}

/** A nearest chunk by cosine similarity. */
export interface ChunkNeighbour {
  documentId: string;
  position: number;
  similarity: number;
}

/** array_send's header for a one-dimensional array: ndim, null flag, element type, then its length and lower bound. */
const ARRAY_HEADER_BYTES = 20;

/** A float4 array as array_send writes it: each element its 4-byte length, then the big-endian float. */
function readSentFloats(bytes: Buffer, target: Float32Array, offset: number, dimension: number): void {
  let norm = 0;
  for (let component = 0; component < dimension; component++) {
    const value = bytes.readFloatBE(ARRAY_HEADER_BYTES + component * 8 + 4);
    target[offset + component] = value;
    norm += value * value;
  }
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let component = 0; component < dimension; component++) target[offset + component] *= scale;
}

/**
 * The chunks' vectors (document_chunk_embeddings, migration 20261129000000): the one owner of that table and of its
 * lease. The page store writes the chunks; this writes their vectors, and only for the content it was given.
 */
export class ChunkVectorStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** Chunks after (documentId, position) in key order without a vector of this model and size, up to limit. */
  async pending(model: string, dimension: number, after: { documentId: string; position: number }, limit: number): Promise<PendingChunk[]> {
    return queryRows<PendingChunk>(this.prisma, {
      name: 'sift_chunk_vectors_pending',
      text: `SELECT ch.document_id, ch.position, ch.content, md5(ch.content) AS content_hash
             FROM document_chunks ch
             WHERE (ch.document_id, ch.position) > ($1::uuid, $2::int)
               AND NOT EXISTS (SELECT 1 FROM document_chunk_embeddings e
                               WHERE e.document_id = ch.document_id AND e.position = ch.position
                                 AND e.model = $3::text AND e.dimension = $4::int)
             ORDER BY ch.document_id, ch.position
             LIMIT $5::int`,
      values: [after.documentId, after.position, model, dimension, limit],
    });
  }

  /** How many stored chunks have no vector of this model and size, and how many there are. */
  async coverage(model: string, dimension: number): Promise<{ pending: number; chunks: number }> {
    const [row] = await queryRows<{ pending: number; chunks: number }>(this.prisma, {
      name: 'sift_chunk_vectors_coverage',
      text: `SELECT count(*) FILTER (WHERE e.document_id IS NULL)::int AS pending, count(*)::int AS chunks
             FROM document_chunks ch
             LEFT JOIN document_chunk_embeddings e
               ON e.document_id = ch.document_id AND e.position = ch.position AND e.model = $1::text AND e.dimension = $2::int`,
      values: [model, dimension],
    });
    return row;
  }

  /** Stores the vectors of the chunks whose content is still the one embedded; returns how many it stored. */
  async write(model: string, vectors: readonly ChunkVector[]): Promise<number> {
    if (vectors.length === 0) return 0;
    const dimension = vectors[0].vector.length;
    const flat: number[] = [];
    for (const { vector } of vectors) for (const value of vector) flat.push(value);
    const rows = await queryRows<{ written: number }>(this.prisma, {
      name: 'sift_chunk_vectors_write',
      text: `WITH given AS (
               SELECT v.document_id, v.position, v.content_hash, v.ordinality
               FROM unnest($1::uuid[], $2::int[], $3::text[]) WITH ORDINALITY AS v(document_id, position, content_hash, ordinality)),
             written AS (
               INSERT INTO document_chunk_embeddings (document_id, position, model, dimension, embedding, embedded_at)
               SELECT g.document_id, g.position, $4::text, $5::int,
                      ($6::real[])[(g.ordinality - 1) * $5::int + 1 : g.ordinality * $5::int], now()
               FROM given g
               JOIN document_chunks ch ON ch.document_id = g.document_id AND ch.position = g.position AND md5(ch.content) = g.content_hash
               ON CONFLICT (document_id, position) DO UPDATE
                 SET model = EXCLUDED.model, dimension = EXCLUDED.dimension, embedding = EXCLUDED.embedding, embedded_at = EXCLUDED.embedded_at
               RETURNING 1)
             SELECT count(*)::int AS written FROM written`,
      values: [vectors.map((entry) => entry.documentId), vectors.map((entry) => entry.position), vectors.map((entry) => entry.contentHash), model, dimension, flat],
    });
    return rows[0]?.written ?? 0;
  }

  /**
   * Takes (or renews) the embedding lease for `holder` until ttlMs from now; false while another process holds an
   * unexpired one.
   */
  async takeLease(holder: string, ttlMs: number): Promise<boolean> {
    const rows = await queryRows<{ holder: string }>(this.prisma, {
      name: 'sift_chunk_vectors_take_lease',
      text: `INSERT INTO chunk_embedding_leases (id, holder, expires_at) VALUES (1, $1::text, now() + $2::int * interval '1 millisecond')
             ON CONFLICT (id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
             WHERE chunk_embedding_leases.holder = EXCLUDED.holder OR chunk_embedding_leases.expires_at < now()
             RETURNING holder`,
      values: [holder, ttlMs],
    });
    return rows.length > 0;
  }

  async releaseLease(holder: string): Promise<void> {
    await queryRows(this.prisma, { name: 'sift_chunk_vectors_release_lease', text: 'DELETE FROM chunk_embedding_leases WHERE holder = $1::text', values: [holder] });
  }

  /** The count of writes to the vectors (migration 20261129000000): unchanged, a loaded copy is current. */
  async changes(): Promise<number> {
    const [row] = await queryRows<{ changes: number }>(this.prisma, {
      name: 'sift_chunk_vectors_changes',
      text: 'SELECT CASE WHEN is_called THEN last_value ELSE 0 END::float8 AS changes FROM sift_chunk_embedding_changes',
      values: [],
    });
    return row.changes;
  }

  /** The corpus's change count (sift_document_changes, migration 20261128000000): chunks may be new when it moved. */
  async corpusChanges(): Promise<number> {
    const [row] = await queryRows<{ changes: number }>(this.prisma, {
      name: 'sift_chunk_vectors_corpus_changes',
      text: 'SELECT CASE WHEN is_called THEN last_value ELSE 0 END::float8 AS changes FROM sift_document_changes',
      values: [],
    });
    return row.changes;
  }

  /** The size of this model's most recently stored vectors: the one a query's vector must have; null before any. */
  async dimensionOf(model: string): Promise<number | null> {
    const [row] = await queryRows<{ dimension: number }>(this.prisma, {
      name: 'sift_chunk_vectors_dimension',
      text: 'SELECT dimension FROM document_chunk_embeddings WHERE model = $1::text ORDER BY embedded_at DESC LIMIT 1',
      values: [model],
    });
    return row?.dimension ?? null;
  }

  /**
   * Every vector of the model and size with its page's owner, read a batch at a time in key order; null when there are
   * more than maximumRows (the caller then has no in-memory index).
   */
  async load(model: string, dimension: number, maximumRows: number, batchSize = 5_000): Promise<LoadedVectors | null> {
    const [{ rows: total }] = await queryRows<{ rows: number }>(this.prisma, {
      name: 'sift_chunk_vectors_count',
      text: 'SELECT count(*)::int AS rows FROM document_chunk_embeddings WHERE model = $1::text AND dimension = $2::int',
      values: [model, dimension],
    });
    if (total > maximumRows) return null;
    // A few rows may be written while the batches are read: room for them, the array cut to what was read.
    const capacity = total + batchSize;
    const matrix = new Float32Array(capacity * dimension);
    const positions = new Int32Array(capacity);
    const documentIds: string[] = [];
    const owners: (string | null)[] = [];
    let after = { documentId: '00000000-0000-0000-0000-000000000000', position: -1 };
    for (;;) {
      const rows = await queryRows<{ document_id: string; position: number; owner_account_id: string | null; embedding: Buffer }>(this.prisma, {
        name: 'sift_chunk_vectors_load',
        // array_send: the floats' binary form, read without parsing a decimal literal per component.
        text: `SELECT e.document_id, e.position, d.owner_account_id, array_send(e.embedding) AS embedding
               FROM document_chunk_embeddings e
               JOIN documents d ON d.id = e.document_id
               WHERE e.model = $1::text AND e.dimension = $2::int AND (e.document_id, e.position) > ($3::uuid, $4::int)
               ORDER BY e.document_id, e.position
               LIMIT $5::int`,
        values: [model, dimension, after.documentId, after.position, batchSize],
      });
      for (const row of rows) {
        if (documentIds.length >= capacity) break;
        readSentFloats(row.embedding, matrix, documentIds.length * dimension, dimension);
        positions[documentIds.length] = row.position;
        documentIds.push(row.document_id);
        owners.push(row.owner_account_id);
      }
      if (rows.length < batchSize || documentIds.length >= capacity) break;
      const last = rows[rows.length - 1];
      after = { documentId: last.document_id, position: last.position };
    }
    const count = documentIds.length;
    return { dimension, documentIds, positions: positions.slice(0, count), owners, matrix: matrix.slice(0, count * dimension) };
  }

  /** Whether pgvector is installed in this database (the migration creates it where the server has it). */
  async hasPgvector(): Promise<boolean> {
    const rows = await queryRows(this.prisma, { name: 'sift_chunk_vectors_pgvector', text: "SELECT 1 FROM pg_extension WHERE extname = 'vector'", values: [] });
    return rows.length > 0;
  }

  /**
   * With pgvector: the HNSW index over the vectors of this size (cosine distance), made once. Its expression and
   * predicate carry the size as a literal, as nearestWithPgvector's query does, so the planner matches them.
   */
  async ensureHnswIndex(dimension: number): Promise<void> {
    const size = checkedDimension(dimension);
    await queryRows(this.prisma, {
      text: `CREATE INDEX CONCURRENTLY IF NOT EXISTS document_chunk_embeddings_hnsw_${size}
             ON document_chunk_embeddings USING hnsw ((embedding::vector(${size})) vector_cosine_ops) WHERE dimension = ${size}`,
      values: [],
    });
  }

  /** With pgvector: the chunks nearest the query vector among those the viewer may see, through the HNSW index. */
  async nearestWithPgvector(model: string, vector: Float32Array, viewer: string | null, limit: number): Promise<ChunkNeighbour[]> {
    const size = checkedDimension(vector.length);
    const rows = await queryRows<{ document_id: string; position: number; similarity: number }>(this.prisma, {
      name: `sift_chunk_vectors_nearest_${size}`,
      text: `SELECT n.document_id, n.position, 1 - n.distance AS similarity
             FROM (SELECT e.document_id, e.position, e.model, e.embedding::vector(${size}) <=> $1::text::vector(${size}) AS distance
                   FROM document_chunk_embeddings e
                   WHERE e.dimension = ${size}
                   ORDER BY e.embedding::vector(${size}) <=> $1::text::vector(${size})
                   LIMIT $4::int) AS n
             JOIN documents d ON d.id = n.document_id
             WHERE n.model = $2::text AND (d.owner_account_id IS NULL OR d.owner_account_id = $3::uuid)
             ORDER BY n.distance`,
      // Other tenants' chunks and another model's take places among the index's nearest: more are read than kept.
      values: [`[${Array.from(vector).join(',')}]`, model, viewer, limit * 4],
    });
    return rows.map((row) => ({ documentId: row.document_id, position: row.position, similarity: row.similarity }));
  }
}

/** A vector size written into SQL as a literal (a type modifier cannot be a parameter): a positive integer only. */
function checkedDimension(dimension: number): number {
  if (!Number.isInteger(dimension) || dimension <= 0 || dimension > 16_000) throw new Error(`not a vector size: ${dimension}`);
  return dimension;
}
