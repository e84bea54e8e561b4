import type { Redis } from 'ioredis';

export interface RedisHealth {
  ok: boolean;
  latencyMs: number;
  error?: string;
}

/** Pings Redis within `timeoutMs`; a health endpoint reports the answer instead of hanging on a dead server. */
export async function checkRedis(connection: Redis, timeoutMs = 1_000): Promise<RedisHealth> {
  const startedAt = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const reply = await Promise.race([
      connection.ping(),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    const latencyMs = Math.round(performance.now() - startedAt);
    return reply === 'PONG' ? { ok: true, latencyMs } : { ok: false, latencyMs, error: `Unexpected reply: ${reply}` };
  } catch (error) {
    return { ok: false, latencyMs: Math.round(performance.now() - startedAt), error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}
