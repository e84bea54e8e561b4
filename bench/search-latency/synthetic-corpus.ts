// 10,000 web-page-sized documents recombined from the Cranfield collection: real aerodynamics vocabulary and
// sentence structure with a realistic word-frequency tail, so the index's posting lists look like a real site's.

export interface SourceDocument {
  title: string;
  text: string;
}

export interface SyntheticDocument {
  url: string;
  title: string;
  text: string;
}

/** mulberry32: a small seeded generator, so every run indexes the same corpus. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=\.)\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.split(/\s+/).length >= 4);
}

/**
 * Each document takes one Cranfield paper as its topic: about half of its sentences come from that paper, the
 * rest from others, in paragraphs of three to six sentences (roughly 300 to 700 words, a typical article page).
 */
export function synthesiseCorpus(sources: SourceDocument[], count: number, seed = 20_261_122): SyntheticDocument[] {
  const random = seededRandom(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const usable = sources.map((source) => ({ title: source.title.trim(), sentences: sentencesOf(source.text) })).filter((source) => source.sentences.length > 0 && source.title !== '');
  const documents: SyntheticDocument[] = [];
  for (let index = 0; index < count; index += 1) {
    const topic = pick(usable);
    const targetSentences = 15 + Math.floor(random() * 20);
    const paragraphs: string[] = [];
    let paragraph: string[] = [];
    for (let sentence = 0; sentence < targetSentences; sentence += 1) {
      paragraph.push(random() < 0.5 ? pick(topic.sentences) : pick(pick(usable).sentences));
      if (paragraph.length >= 3 + Math.floor(random() * 4)) {
        paragraphs.push(paragraph.join(' '));
        paragraph = [];
      }
    }
    if (paragraph.length > 0) paragraphs.push(paragraph.join(' '));
    const site = `site${index % 50}.bench.example`;
    documents.push({
      url: `https://${site}/articles/${index}`,
      title: random() < 0.3 ? `${topic.title} — ${pick(usable).title}` : topic.title,
      text: paragraphs.join('\n\n'),
    });
  }
  return documents;
}
