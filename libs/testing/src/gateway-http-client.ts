export interface GatewayCallOptions {
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Serialised as JSON unless it is already a string (for raw or oversized bodies). */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface GatewayAnswer<Body = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: Body;
}

/** One HTTP call to a test gateway over the loopback, as a real client makes it. */
export async function callGateway<Body = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  options: GatewayCallOptions = {},
): Promise<GatewayAnswer<Body>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers['Authorization'] = `Bearer ${options.apiKey}`;
  let payload: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body: payload });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  const body = (contentType.includes('json') && text ? JSON.parse(text) : text) as Body;
  return { status: response.status, headers: response.headers, body };
}
