/**
 * The length of `text.replace(/[\s|]+/g, '')` without making that string: its UTF-16 code units other than
 * whitespace (as `\s` matches it) and `|`. Content choice compares such lengths of whole pages and sections.
 */
export function squeezedLength(text: string): number {
  let removed = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (isSqueezed(text.charCodeAt(index))) removed += 1;
  }
  return text.length - removed;
}

function isSqueezed(code: number): boolean {
  if (code < 0x80) return code === 0x20 || code === 0x7c || (code >= 0x09 && code <= 0x0d);
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
