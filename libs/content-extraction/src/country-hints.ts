/** "en-GB" → "GB": the region subtag of each language tag a page declares is a hint of the country it is for. */
export function countryHintsOf(contentLanguageHints: readonly string[]): string[] {
  return [...new Set(contentLanguageHints.flatMap((hint) => hint.split(/[-_]/).slice(1, 2)).filter((region) => /^[A-Za-z]{2}$/.test(region)).map((region) => region.toUpperCase()))];
}
