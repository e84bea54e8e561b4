const COUNTRY_NAMES: Record<string, string> = {
  afghanistan: 'af', argentina: 'ar', australia: 'au', austria: 'at', bangladesh: 'bd', belgium: 'be',
  brazil: 'br', bulgaria: 'bg', canada: 'ca', chile: 'cl', china: 'cn', colombia: 'co', croatia: 'hr',
  'czech republic': 'cz', czechia: 'cz', denmark: 'dk', egypt: 'eg', estonia: 'ee', finland: 'fi',
  france: 'fr', germany: 'de', greece: 'gr', 'hong kong': 'hk', hungary: 'hu', iceland: 'is', india: 'in',
  indonesia: 'id', iran: 'ir', iraq: 'iq', ireland: 'ie', israel: 'il', italy: 'it', japan: 'jp',
  kenya: 'ke', latvia: 'lv', lithuania: 'lt', luxembourg: 'lu', malaysia: 'my', mexico: 'mx',
  morocco: 'ma', netherlands: 'nl', 'new zealand': 'nz', nigeria: 'ng', norway: 'no', pakistan: 'pk',
  peru: 'pe', philippines: 'ph', poland: 'pl', portugal: 'pt', qatar: 'qa', romania: 'ro', russia: 'ru',
  'saudi arabia': 'sa', serbia: 'rs', singapore: 'sg', slovakia: 'sk', slovenia: 'si', 'south africa': 'za',
  'south korea': 'kr', spain: 'es', sweden: 'se', switzerland: 'ch', taiwan: 'tw', thailand: 'th',
  turkey: 'tr', ukraine: 'ua', 'united arab emirates': 'ae', 'united kingdom': 'gb', 'united states': 'us',
  vietnam: 'vn',
};

// Country-code TLDs whose code differs from ISO 3166-1, and generic-looking ones that are not countries.
const TLD_EXCEPTIONS: Record<string, string | null> = { uk: 'gb', eu: null, tv: null, io: null, co: null, me: null, ai: null };

/** "United States", "us", "US" → "us"; undefined when unknown. */
export function countryCodeOf(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const lower = value.trim().toLowerCase();
  if (COUNTRY_NAMES[lower]) return COUNTRY_NAMES[lower];
  return /^[a-z]{2}$/.test(lower) ? lower : undefined;
}

/** The country a host's TLD names ("bbc.co.uk" → "gb"), if any. */
export function countryOfHost(host: string): string | undefined {
  const tld = host.toLowerCase().split('.').pop() ?? '';
  if (tld in TLD_EXCEPTIONS) return TLD_EXCEPTIONS[tld] ?? undefined;
  return /^[a-z]{2}$/.test(tld) ? tld : undefined;
}
