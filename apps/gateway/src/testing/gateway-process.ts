import { type AppProcess, freeLoopbackPort, startAppProcess } from './app-process';
import { TEST_GATEWAY_ENV } from './gateway-harness';

export interface GatewayProcess extends AppProcess {
  /** `http://127.0.0.1:<port>` without a trailing slash. */
  baseUrl: string;
}

/**
 * The gateway as its own process (`apps/gateway/src/main.ts`, as `npm start` runs it), with the test gateway's
 * settings: a second instance beside an in-process one shares Postgres and Redis with it, and nothing else. Ready
 * when it logs that it listens: the line an operator waits for, so a start-up that silences the gateway's own
 * logging (as a second Nest application created with `logger: false` once did) fails here.
 */
export async function startGatewayProcess(env: Record<string, string> = {}): Promise<GatewayProcess> {
  const port = await freeLoopbackPort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const gateway = await startAppProcess('apps/gateway/src/main.ts', { ...TEST_GATEWAY_ENV, SIFT_LOG_LEVEL: 'log', ...env, PORT: String(port) }, /Sift gateway listening on /);
  return { baseUrl, ...gateway };
}
