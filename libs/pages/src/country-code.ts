import countries from 'i18n-iso-countries/index';
import englishNames from 'i18n-iso-countries/langs/en.json';

// Only the English names: the package's Node entry would load all of its 80 languages (2.8 MB of heap, not 0.7).
countries.registerLocale(englishNames);

// Short names people type that the English table lacks (it has "Lao People's Democratic Republic", not "Laos").
const COMMON_NAMES: Record<string, string> = {
  laos: 'la', syria: 'sy', brunei: 'bn', vatican: 'va', 'vatican city': 'va', 'east timor': 'tl', swaziland: 'sz',
  burma: 'mm', macedonia: 'mk', 'cabo verde': 'cv', macau: 'mo', england: 'gb', scotland: 'gb', wales: 'gb',
  'northern ireland': 'gb',
};

/** Lower case, without diacritics or a leading "the", "&" as "and", whitespace collapsed: "The Bahamas" → "bahamas". */
function nameKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^the /, '');
}

/**
 * Every English name of every ISO 3166-1 country (i18n-iso-countries), then each such name without its
 * parenthesised part ("Falkland Islands (Malvinas)"), before its comma ("Moldova, Republic of") and turned around
 * its comma ("Virgin Islands, British" → "british virgin islands"), then the common names above. A name two
 * countries share ("Congo") keeps the first.
 */
function countryNameTable(): Map<string, string> {
  const named = Object.entries(countries.getNames('en', { select: 'all' })).flatMap(([code, names]) =>
    names.map((name) => ({ name, code: code.toLowerCase() })),
  );
  const table = new Map<string, string>();
  const add = (name: string, code: string) => {
    const key = nameKey(name);
    if (key && !table.has(key)) table.set(key, code);
  };
  for (const { name, code } of named) add(name, code);
  for (const { name, code } of named) {
    const [before, after] = name.split(',', 2);
    add(name.replace(/\s*\(.*\)\s*/g, ' '), code);
    add(before, code);
    if (after) add(`${after} ${before}`, code);
  }
  for (const [name, code] of Object.entries(COMMON_NAMES)) add(name, code);
  return table;
}

const COUNTRY_NAMES = countryNameTable();
const ALPHA2_CODES = new Set(Object.keys(countries.getAlpha2Codes()).map((code) => code.toLowerCase()));

// Country-code TLDs whose code differs from ISO 3166-1, and generic-looking ones that are not countries.
const TLD_EXCEPTIONS: Record<string, string | null> = { uk: 'gb', eu: null, tv: null, io: null, co: null, me: null, ai: null };

/**
 * "United States", "united states of america", "usa", "US", "deu" → the ISO 3166-1 alpha-2 code, lower case; any
 * English name, alpha-2 or alpha-3 code of a country. Undefined for anything else.
 */
export function countryCodeOf(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const key = nameKey(value);
  const named = COUNTRY_NAMES.get(key);
  if (named) return named;
  if (/^[a-z]{2}$/.test(key)) return ALPHA2_CODES.has(key) ? key : undefined;
  if (/^[a-z]{3}$/.test(key)) return countries.alpha3ToAlpha2(key.toUpperCase())?.toLowerCase();
  return undefined;
}

/** The country a host's TLD names ("bbc.co.uk" → "gb"), if any. */
export function countryOfHost(host: string): string | undefined {
  const tld = host.toLowerCase().split('.').pop() ?? '';
  if (tld in TLD_EXCEPTIONS) return TLD_EXCEPTIONS[tld] ?? undefined;
  return ALPHA2_CODES.has(tld) ? tld : undefined;
}
