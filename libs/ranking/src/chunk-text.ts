export const DEFAULT_CHUNK_CHARS = 500;

type Splitter = (text: string) => { pieces: string[]; joiner: string };

// Markdown headings and setext-free plain text both arrive here; a heading line starts a new section so a
// chunk keeps a heading with the paragraphs under it rather than with the end of the previous section.
const HEADING_LINE = /\n(?=#{1,6}\s)/;
const PARAGRAPH_BREAK = /\n\s*\n/;
// A sentence ends at . ! ? (or their CJK forms) followed by whitespace; abbreviations may cut early, which only
// costs a slightly smaller chunk.
const SENTENCE_END = /(?<=[.!?。！？])\s+/;

const splitters: Splitter[] = [
  (text) => ({ pieces: text.split(HEADING_LINE), joiner: '\n\n' }),
  (text) => ({ pieces: text.split(PARAGRAPH_BREAK), joiner: '\n\n' }),
  (text) => ({ pieces: text.split('\n'), joiner: '\n' }),
  (text) => ({ pieces: text.split(SENTENCE_END), joiner: ' ' }),
  (text) => ({ pieces: text.split(/\s+/), joiner: ' ' }),
];

/**
 * Splits text into chunks of at most `maxChars` characters, cutting at the strongest boundary that makes the
 * pieces fit: heading, then paragraph, line, sentence, word, and only for a single over-long word, characters.
 * Neighbouring pieces are packed together while they fit, so chunks are as large as the limit allows.
 */
export function chunkText(text: string, maxChars: number = DEFAULT_CHUNK_CHARS): string[] {
  if (maxChars < 1) throw new RangeError('maxChars must be at least 1');
  const trimmed = text.trim();
  if (!trimmed) return [];
  return split(trimmed, maxChars, 0);
}

function split(text: string, maxChars: number, level: number): string[] {
  if (text.length <= maxChars) return [text];
  if (level >= splitters.length) return hardSplit(text, maxChars);
  const { pieces, joiner } = splitters[level](text);
  const parts = pieces.map((piece) => piece.trim()).filter((piece) => piece.length > 0);
  if (parts.length <= 1) return split(parts[0] ?? '', maxChars, level + 1);
  const chunks: string[] = [];
  let current = '';
  for (const part of parts) {
    if (part.length > maxChars) {
      if (current) chunks.push(current);
      current = '';
      chunks.push(...split(part, maxChars, level + 1));
      continue;
    }
    const candidate = current ? current + joiner + part : part;
    if (candidate.length <= maxChars) {
      current = candidate;
    } else {
      chunks.push(current);
      current = part;
    }
  }
  if (current) chunks.push(current);
  return chunks;
}

function hardSplit(text: string, maxChars: number): string[] {
  const chunks: string[] = [];
  const characters = Array.from(text);
  let current = '';
  for (const character of characters) {
    if (current.length + character.length > maxChars) {
      chunks.push(current);
      current = '';
    }
    current += character;
  }
  if (current) chunks.push(current);
  return chunks;
}
