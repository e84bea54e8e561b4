import { assertPublicDestination } from '@sift/safe-fetch';
import type { EgressPolicy } from '@sift/safe-fetch';

export interface JsonPostRequest {
  url: string;
  body: unknown;
  headers: Record<string, string>;
  deadlineMs: number;
  policy: EgressPolicy;
}

export interface JsonPostResponse {
  status: number;
  text: string;
}

/** How the LLM client sends a POST; injectable so the client does not care which HTTP path carries it. */
export type JsonPostTransport = (request: JsonPostRequest) => Promise<JsonPostResponse>;

/**
 * TEMPORARY private call path, to be replaced by safeFetch once it can POST: @sift/safe-fetch's safeFetch is
 * GET-only today. The destination is only ever the operator's LLM_BASE_URL (never a caller-supplied URL), and
 * safe-fetch's destination guard still checks it against the egress policy before the request leaves.
 */
export const postJson: JsonPostTransport = async (request) => {
  await assertPublicDestination(request.url, request.policy);
  // eslint-disable-next-line no-restricted-globals -- temporary: safeFetch cannot POST yet (see above).
  const response = await fetch(request.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...request.headers },
    body: JSON.stringify(request.body),
    signal: AbortSignal.timeout(request.deadlineMs),
    redirect: 'error',
  });
  return { status: response.status, text: await response.text() };
};
