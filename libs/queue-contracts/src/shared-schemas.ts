import { z } from 'zod';

// Field schemas used by more than one job; kept next to the jobs rather than in a grab-bag.
export const extractDepthSchema = z.enum(['basic', 'advanced']);
export type ExtractDepth = z.infer<typeof extractDepthSchema>;

export const contentFormatSchema = z.enum(['markdown', 'text']);
export type ContentFormat = z.infer<typeof contentFormatSchema>;

export const requestIdSchema = z.string().min(1).max(200);
export const accountIdSchema = z.string().min(1).max(200);
/** The accountId of jobs for callers without an API key. */
export const KEYLESS_ACCOUNT_ID = 'keyless';
/** The accountId of operator jobs (admin-cli): no customer account, not billed. */
export const OPERATOR_ACCOUNT_ID = 'admin-cli';

/** Chunks returned per source when a query or instructions are given (spec: 1 to 5). */
export const chunksPerSourceSchema = z.number().int().min(1).max(5);
