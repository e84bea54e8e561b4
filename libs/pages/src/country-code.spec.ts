import { countryCodeOf, countryOfHost } from './country-code';

// The lowercase English names Tavily clients send in `country` (the values its search API lists).
const TAVILY_COUNTRY_NAMES = `afghanistan albania algeria andorra angola argentina armenia australia austria azerbaijan bahamas bahrain
  bangladesh barbados belarus belgium belize benin bhutan bolivia bosnia_and_herzegovina botswana brazil brunei bulgaria
  burkina_faso burundi cambodia cameroon canada cape_verde central_african_republic chad chile china colombia comoros congo
  costa_rica croatia cuba cyprus czech_republic denmark djibouti dominican_republic ecuador egypt el_salvador
  equatorial_guinea eritrea estonia ethiopia fiji finland france gabon gambia georgia germany ghana greece guatemala guinea
  haiti honduras hungary iceland india indonesia iran iraq ireland israel italy jamaica japan jordan kazakhstan kenya kuwait
  kyrgyzstan latvia lebanon lesotho liberia libya liechtenstein lithuania luxembourg madagascar malawi malaysia maldives mali
  malta mauritania mauritius mexico moldova monaco mongolia montenegro morocco mozambique myanmar namibia nepal netherlands
  new_zealand nicaragua niger nigeria north_korea north_macedonia norway oman pakistan panama papua_new_guinea paraguay peru
  philippines poland portugal qatar romania russia rwanda saudi_arabia senegal serbia singapore slovakia slovenia somalia
  south_africa south_korea south_sudan spain sri_lanka sudan sweden switzerland syria taiwan tajikistan tanzania thailand togo
  trinidad_and_tobago tunisia turkey turkmenistan uganda ukraine united_arab_emirates united_kingdom united_states uruguay
  uzbekistan venezuela vietnam yemen zambia zimbabwe`
  .split(/\s+/)
  .map((name) => name.replace(/_/g, ' '));

describe('countryCodeOf', () => {
  it('maps every country name Tavily clients send', () => {
    const unmapped = TAVILY_COUNTRY_NAMES.filter((name) => !/^[a-z]{2}$/.test(countryCodeOf(name) ?? ''));
    expect(unmapped).toEqual([]);
    expect(TAVILY_COUNTRY_NAMES.map(countryCodeOf).filter((code, position, codes) => codes.indexOf(code) !== position)).toEqual([]);
  });

  it.each([
    ['united states', 'us'],
    ['United States of America', 'us'],
    ['usa', 'us'],
    ['US', 'us'],
    ['uk', 'gb'],
    ['united kingdom', 'gb'],
    ['great britain', 'gb'],
    ['deu', 'de'],
    ['The Bahamas', 'bs'],
    ['türkiye', 'tr'],
    ['turkiye', 'tr'],
    ["cote d'ivoire", 'ci'],
    ['ivory coast', 'ci'],
    ['laos', 'la'],
    ['moldova', 'md'],
    ['british virgin islands', 'vg'],
    ['democratic republic of the congo', 'cd'],
    ['  south   korea ', 'kr'],
  ])('%s → %s', (name, code) => {
    expect(countryCodeOf(name)).toBe(code);
  });

  it('knows no country for unknown names and unassigned codes', () => {
    for (const value of ['atlantis', 'zz', 'eu', 'xyz', '', null, undefined]) expect(countryCodeOf(value)).toBeUndefined();
  });
});

describe('countryOfHost', () => {
  it('reads the country of a country-code TLD, not of generic-looking ones', () => {
    expect(countryOfHost('www.bbc.co.uk')).toBe('gb');
    expect(countryOfHost('spiegel.de')).toBe('de');
    expect(countryOfHost('example.io')).toBeUndefined();
    expect(countryOfHost('example.com')).toBeUndefined();
  });
});
