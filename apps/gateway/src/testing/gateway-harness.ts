import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { PrismaClient } from '@sift/persistence';
import { createGatewayApp } from '../app.factory';

export interface TestGateway {
  /** `http://127.0.0.1:<port>` without a trailing slash. */
  baseUrl: string;
  app: INestApplication;
  /** The gateway's own Prisma client, for fixtures and for asserting what was stored. */
  prisma: PrismaClient;
  close(): Promise<void>;
}

/**
 * Settings a test gateway starts with: one trusted proxy hop, played by the test, so the client address is the last
 * X-Forwarded-For entry (each test can be its own keyless caller), and a keyless budget small enough to exhaust in a
 * few requests.
 */
export const TEST_GATEWAY_ENV: Record<string, string> = {
  TRUST_PROXY: '1',
  KEYLESS_REQUESTS_PER_MINUTE: '3',
  SIFT_LOG_LEVEL: 'error',
};

/**
 * The gateway exactly as `npm start` builds it, on 127.0.0.1 and a random port. Environment overrides apply
 * while the app reads its configuration and are restored afterwards, so test files do not leak settings.
 */
export async function startTestGateway(envOverrides: Record<string, string> = {}): Promise<TestGateway> {
  const settings = { ...TEST_GATEWAY_ENV, ...envOverrides };
  const previous = Object.fromEntries(Object.keys(settings).map((name) => [name, process.env[name]]));
  Object.assign(process.env, settings);
  let app: INestApplication;
  try {
    app = await createGatewayApp();
  } finally {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  await app.listen(0, '127.0.0.1');
  const address = (app.getHttpServer() as Server).address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    app,
    prisma: app.get(PrismaClient),
    close: () => app.close(),
  };
}

/**
 * A fresh address in the IPv6 documentation range (RFC 3849), sent as X-Forwarded-For to be a keyless caller no
 * other test or earlier run has been; the keyless buckets in Redis outlive a test run by up to a day.
 */
export function uniqueClientIp(): string {
  const groups = Array.from({ length: 4 }, () => randomBytes(2).toString('hex'));
  return `2001:db8::${groups.join(':')}`;
}
