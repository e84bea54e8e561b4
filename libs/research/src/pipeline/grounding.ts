import { plainText } from '@sift/llm';

/**
 * True when the sentence is found word for word in the source's content, both read as plain text (whitespace
 * collapsed, links by their text, emphasis and code marks dropped): how an extractive report's quotes are checked.
 */
export function isGroundedIn(sentence: string, sourceContent: string): boolean {
  const quoted = plainText(sentence);
  return quoted !== '' && plainText(sourceContent).includes(quoted);
}
