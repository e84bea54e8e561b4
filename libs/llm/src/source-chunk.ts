/** A retrieved passage an answer may draw on. */
export interface SourceChunk {
  url: string;
  title: string;
  content: string;
}

export interface AnswerSource {
  url: string;
  title: string;
}

/** How an answer or description was produced: by the configured model, or from the sources' own words. */
export type GenerationMode = 'llm' | 'extractive';

/** The distinct sources of the chunks, numbered from 1 in order of first appearance: the citation numbers. */
export function numberSources(chunks: SourceChunk[]): { sources: AnswerSource[]; numberOf: (url: string) => number } {
  const sources: AnswerSource[] = [];
  const numbers = new Map<string, number>();
  for (const chunk of chunks) {
    if (numbers.has(chunk.url)) continue;
    sources.push({ url: chunk.url, title: chunk.title });
    numbers.set(chunk.url, sources.length);
  }
  return { sources, numberOf: (url) => numbers.get(url) ?? 0 };
}
