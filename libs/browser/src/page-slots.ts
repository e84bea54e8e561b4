/** A counting semaphore: at most `capacity` pages render at once, the rest wait in arrival order. */
export class PageSlots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly capacity: number) {}

  async acquire(): Promise<() => void> {
    if (this.active >= this.capacity) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active += 1;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `active` only drops when nobody waits.
      if (next) next();
      else this.active -= 1;
    };
  }
}
