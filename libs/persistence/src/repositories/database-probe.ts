import type { PrismaClient } from '../generated/prisma/client';

/** Whether Postgres answers: the readiness check's question, asked without handing the caller a database client. */
export class DatabaseProbe {
  constructor(private readonly prisma: PrismaClient) {}

  /** True when `SELECT 1` answers within timeoutMs; false when it fails or takes longer (a hung connection included). */
  async answers(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const answered = this.prisma.$queryRaw`SELECT 1`.then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([answered, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }
}
