import { callGateway } from '@sift/testing';
import { type AppProcess, freeLoopbackPort, startAppProcess } from './app-process';
import { TEST_GATEWAY_ENV } from './gateway-harness';

export interface GatewayProcess extends AppProcess {
  /** `http://127.0.0.1:<port>` without a trailing slash. */
  baseUrl: string;
}

/**
 * The gateway as its own process (`apps/gateway/src/main.ts`, as `npm start` runs it), with the test gateway's
 * settings: a second instance beside an in-process one shares Postgres and Redis with it, and nothing else. Ready
 * when GET /health answers at all (it answers 503 until workers consume the queues).
 */
export async function startGatewayProcess(env: Record<string, string> = {}): Promise<GatewayProcess> {
  const port = await freeLoopbackPort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const answersHealth = () =>
    callGateway(baseUrl, 'GET', '/health').then(
      () => true,
      () => false,
    );
  const gateway = await startAppProcess('apps/gateway/src/main.ts', { ...TEST_GATEWAY_ENV, ...env, PORT: String(port) }, answersHealth);
  return { baseUrl, ...gateway };
}
