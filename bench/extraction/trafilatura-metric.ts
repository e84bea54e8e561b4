// The trafilatura evaluation metric (tests/eval_common.py): "with" segments found in the normalised
// extraction are true positives, "without" segments found are false positives; counts are summed over pages.
import { CorpusScore } from './scrapinghub-metric';

export interface SegmentCounts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

export function scoreSegments(extracted: string, withSegments: string[], withoutSegments: string[]): SegmentCounts {
  const text = normalise(extracted);
  const counts: SegmentCounts = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const segment of withSegments) {
    if (text.includes(normalise(segment))) counts.tp += 1;
    else counts.fn += 1;
  }
  for (const segment of withoutSegments) {
    if (text.includes(normalise(segment))) counts.fp += 1;
    else counts.tn += 1;
  }
  return counts;
}

export function scoreSegmentCorpus(pages: SegmentCounts[]): CorpusScore {
  const total = pages.reduce(
    (sum, page) => ({ tp: sum.tp + page.tp, fp: sum.fp + page.fp, fn: sum.fn + page.fn, tn: sum.tn + page.tn }),
    { tp: 0, fp: 0, fn: 0, tn: 0 },
  );
  const precision = total.tp + total.fp ? total.tp / (total.tp + total.fp) : 0;
  const recall = total.tp + total.fn ? total.tp / (total.tp + total.fn) : 0;
  const f1 = 2 * total.tp + total.fp + total.fn ? (2 * total.tp) / (2 * total.tp + total.fp + total.fn) : 0;
  return { f1, precision, recall };
}
