import { isDeepStrictEqual } from 'node:util';
import type { ResearchEvent } from '@sift/queue-contracts';

/**
 * Which events of a resumed attempt the task's stream already shows, from the attempt that died. Steps are known by
 * their ids, the same in every attempt (see the pipeline's tool ids); the report's pieces by their place: the n-th
 * piece repeats the earlier n-th while the two are equal, and from the first that differs (a model that writes other
 * words the second time) every piece is new. The source list is shown once.
 */
export class ReplayedEvents {
  private readonly steps: Set<string>;
  private readonly pieces: ResearchEvent[];
  private readonly sources: ResearchEvent | undefined;
  private nextPiece = 0;
  private diverged = false;

  constructor(earlier: ResearchEvent[]) {
    this.steps = new Set(earlier.flatMap((event) => (event.type === 'tool_call' || event.type === 'tool_response' ? [`${event.type}:${event.id}`] : [])));
    this.pieces = earlier.filter((event) => event.type === 'content');
    this.sources = earlier.find((event) => event.type === 'sources');
  }

  /** True when the stream already shows this event: publishing it again would show it twice. */
  repeats(event: ResearchEvent): boolean {
    switch (event.type) {
      case 'tool_call':
      case 'tool_response':
        return this.steps.has(`${event.type}:${event.id}`);
      case 'content':
        return this.repeatsPiece(event);
      case 'sources':
        return isDeepStrictEqual(event, this.sources);
      default:
        return false;
    }
  }

  private repeatsPiece(event: ResearchEvent): boolean {
    if (this.diverged) return false;
    const earlier = this.pieces[this.nextPiece];
    this.nextPiece += 1;
    if (earlier && isDeepStrictEqual(earlier, event)) return true;
    this.diverged = true;
    return false;
  }
}
