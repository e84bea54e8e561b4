export interface FrontierEntry {
  url: URL;
  depth: number;
  /** Relevance to the instructions; 0 for every link of a plain breadth-first crawl. */
  score: number;
}

interface QueuedEntry extends FrontierEntry {
  sequence: number;
}

/**
 * The URLs still to visit, best first: higher score, then lower depth, then discovery order. Without
 * instructions every score is 0, which makes it an exact breadth-first queue.
 */
export class CrawlFrontier {
  private readonly heap: QueuedEntry[] = [];
  private nextSequence = 0;

  get size(): number {
    return this.heap.length;
  }

  push(entry: FrontierEntry): void {
    this.heap.push({ ...entry, sequence: this.nextSequence++ });
    this.siftUp(this.heap.length - 1);
  }

  pop(): FrontierEntry | undefined {
    const top = this.heap[0];
    const last = this.heap.pop();
    if (top && last && this.heap.length > 0) {
      this.heap[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  private before(left: QueuedEntry, right: QueuedEntry): boolean {
    if (left.score !== right.score) return left.score > right.score;
    if (left.depth !== right.depth) return left.depth < right.depth;
    return left.sequence < right.sequence;
  }

  private siftUp(index: number): void {
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.before(this.heap[child], this.heap[parent])) return;
      [this.heap[child], this.heap[parent]] = [this.heap[parent], this.heap[child]];
      child = parent;
    }
  }

  private siftDown(index: number): void {
    let parent = index;
    for (;;) {
      const left = parent * 2 + 1;
      const right = left + 1;
      let best = parent;
      if (left < this.heap.length && this.before(this.heap[left], this.heap[best])) best = left;
      if (right < this.heap.length && this.before(this.heap[right], this.heap[best])) best = right;
      if (best === parent) return;
      [this.heap[parent], this.heap[best]] = [this.heap[best], this.heap[parent]];
      parent = best;
    }
  }
}
