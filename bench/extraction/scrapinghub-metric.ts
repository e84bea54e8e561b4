// The ScrapingHub article-extraction-benchmark metric (its evaluate.py): 4-token shingle multisets compared
// per page, per-page precision and recall averaged over pages, F1 of the two means.

export interface PageCounts {
  tp: number;
  fp: number;
  fn: number;
}

export interface CorpusScore {
  f1: number;
  precision: number;
  recall: number;
}

function shingles(text: string): Map<string, number> {
  const tokens = text.match(/\w+/gu) ?? [];
  const counts = new Map<string, number>();
  const size = Math.min(4, tokens.length);
  if (size === 0) return counts;
  for (let start = 0; start + size <= tokens.length; start += 1) {
    const key = tokens.slice(start, start + size).join('\u0000');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** tp, fp, fn of one page, normalised to sum to 1 so every page weighs the same. */
export function scorePage(truth: string, prediction: string): PageCounts {
  const expected = shingles(truth);
  const predicted = shingles(prediction);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const key of new Set([...expected.keys(), ...predicted.keys()])) {
    const wanted = expected.get(key) ?? 0;
    const got = predicted.get(key) ?? 0;
    tp += Math.min(wanted, got);
    fp += Math.max(0, got - wanted);
    fn += Math.max(0, wanted - got);
  }
  const total = tp + fp + fn;
  return total === 0 ? { tp: 0, fp: 0, fn: 0 } : { tp: tp / total, fp: fp / total, fn: fn / total };
}

function precisionOf({ tp, fp, fn }: PageCounts): number {
  if (fp === 0 && fn === 0) return 1;
  return tp + fp === 0 ? 0 : tp / (tp + fp);
}

function recallOf({ tp, fp, fn }: PageCounts): number {
  if (fp === 0 && fn === 0) return 1;
  return tp + fn === 0 ? 0 : tp / (tp + fn);
}

export function scoreCorpus(pages: PageCounts[]): CorpusScore {
  const mean = (values: number[]) => (values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0);
  const precision = mean(pages.filter((page) => page.tp + page.fp > 0).map(precisionOf));
  const recall = mean(pages.filter((page) => page.tp + page.fn > 0).map(recallOf));
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { f1, precision, recall };
}
