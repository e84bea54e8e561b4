import { type AppProcess, startAppProcess } from './app-process';
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
  // Port 0 and the address it logs: a port picked free beforehand can be taken (by another process's outgoing
  // connection) before the gateway binds it.
  const gateway = await startAppProcess('apps/gateway/src/main.ts', { ...TEST_GATEWAY_ENV, SIFT_LOG_LEVEL: 'log', ...env, PORT: '0' }, LISTENING);
  const baseUrl = LISTENING.exec(gateway.output())?.[1] ?? '';
  return { baseUrl, ...gateway };
}

const LISTENING = /Sift gateway listening on (http:\/\/127\.0\.0\.1:[1-9]\d*)/;
