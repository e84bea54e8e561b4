/** One absolute deadline shared by every step of an extraction (fetch, browser retry, store). */
export class Deadline {
  private constructor(
    private readonly expiresAt: number,
    readonly budgetMs: number,
  ) {}

  static after(budgetMs: number): Deadline {
    return new Deadline(performance.now() + budgetMs, budgetMs);
  }

  remainingMs(): number {
    return Math.max(0, Math.floor(this.expiresAt - performance.now()));
  }

  get expired(): boolean {
    return this.remainingMs() <= 0;
  }
}

/**
 * `work`'s value, or `fallback` when it has not settled within `ms`; the work goes on regardless. `work` must not reject
 * (catch its errors first): nothing would hear a rejection that comes after the fallback.
 */
export async function valueWithin<T, F>(work: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback), Math.max(0, ms))));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
