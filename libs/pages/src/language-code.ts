const LANGUAGE_NAMES: Record<string, string> = {
  arabic: 'ar', armenian: 'hy', basque: 'eu', catalan: 'ca', chinese: 'zh', czech: 'cs', danish: 'da',
  dutch: 'nl', english: 'en', finnish: 'fi', french: 'fr', german: 'de', greek: 'el', hebrew: 'he',
  hindi: 'hi', hungarian: 'hu', indonesian: 'id', irish: 'ga', italian: 'it', japanese: 'ja', korean: 'ko',
  lithuanian: 'lt', nepali: 'ne', norwegian: 'no', polish: 'pl', portuguese: 'pt', romanian: 'ro',
  russian: 'ru', serbian: 'sr', spanish: 'es', swedish: 'sv', tamil: 'ta', thai: 'th', turkish: 'tr',
  ukrainian: 'uk', vietnamese: 'vi', yiddish: 'yi',
};

/**
 * "en-US", "EN", "English" → "en". Documents are stored under the primary subtag so a filter on "en" finds
 * pages declared "en-GB". Returns undefined for anything unrecognisable.
 */
export function languageCodeOf(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const lower = value.trim().toLowerCase();
  const named = LANGUAGE_NAMES[lower];
  if (named) return named;
  const primary = lower.split(/[-_]/, 1)[0];
  return /^[a-z]{2,3}$/.test(primary) ? primary : undefined;
}

const NAMES_BY_CODE = new Map(Object.entries(LANGUAGE_NAMES).map(([name, code]) => [code, name]));

/**
 * The name of the text search configuration of a language code ("en" → "english"), as sift_search_config
 * (migration 20261122010000) names it; only names the corpus's configurations include are ever compared with it.
 */
export function searchConfigNameOf(code: string | null | undefined): string | undefined {
  return code ? NAMES_BY_CODE.get(code) : undefined;
}
