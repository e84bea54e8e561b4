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
