import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request } from 'express';
import { ApiError } from '../http/api-error';

/**
 * The largest JSONL file the admin API takes, multipart or raw. It is written to the gateway's temporary directory
 * (TMPDIR) before the job reads it; larger dumps belong to the command line, which reads the file where it lies.
 */
export const IMPORT_UPLOAD_MAX_BYTES = 512 * 1024 * 1024;

/** Raw bodies taken as the file; JSON and multipart bodies are the parsers'. */
export const RAW_IMPORT_TYPES = ['application/x-ndjson', 'application/jsonl', 'application/octet-stream'];

export const NO_UPLOAD_MESSAGE =
  'Send the JSONL file as the multipart field "file", or as the request body with Content-Type application/x-ndjson.';

export interface ImportUpload {
  /** Where the gateway keeps it until the job has read it. */
  path: string;
  /** As the operator named it (the multipart file name), for the audit and the job's parameters. */
  name: string;
  bytes: number;
}

/** What multer hands over for a file field written to disk. */
export interface MulterDiskFile {
  path: string;
  originalname: string;
  size: number;
}

/** The uploaded file: the multipart one multer wrote, or a raw body streamed to a temporary file here. */
export async function receiveImportUpload(request: Request, file: MulterDiskFile | undefined): Promise<ImportUpload> {
  if (file) return { path: file.path, name: file.originalname, bytes: file.size };
  if (!request.is(RAW_IMPORT_TYPES)) throw new ApiError(400, NO_UPLOAD_MESSAGE);
  const path = join(tmpdir(), `sift-admin-import-${randomUUID()}.jsonl`);
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > IMPORT_UPLOAD_MAX_BYTES ? new ApiError(413, `The file is over ${IMPORT_UPLOAD_MAX_BYTES} bytes; import it with the command line (npm run admin -- index import).`) : null, chunk);
    },
  });
  try {
    await pipeline(request, counter, createWriteStream(path));
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  if (bytes === 0) {
    await rm(path, { force: true });
    throw new ApiError(400, NO_UPLOAD_MESSAGE);
  }
  return { path, name: 'request body', bytes };
}
