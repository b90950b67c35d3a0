/**
 * Countries by ISO 3166-1 alpha-2 code and the English names lists give them (OFAC writes
 * "Russia", "Iran", "Korea, North"; OpenSanctions writes codes), so a nationality or
 * citizenship compares whichever way it was written. `countryCodeOf` takes a code or a name
 * (case, accents and punctuation ignored) and gives the code; null when it knows neither.
 */
import { wordsOfName } from './normalise.ts';

const TABLE = `AD Andorra|AE United Arab Emirates;UAE|AF Afghanistan|AG Antigua and Barbuda|AI Anguilla|AL Albania|AM Armenia|AO Angola|AR Argentina|AS American Samoa|AT Austria|AU Australia|AW Aruba|AX Aland Islands|AZ Azerbaijan|BA Bosnia and Herzegovina;Bosnia-Herzegovina|BB Barbados|BD Bangladesh|BE Belgium|BF Burkina Faso|BG Bulgaria|BH Bahrain|BI Burundi|BJ Benin|BM Bermuda|BN Brunei|BO Bolivia|BR Brazil|BS Bahamas;The Bahamas|BT Bhutan|BW Botswana|BY Belarus|BZ Belize|CA Canada|CD Congo, Democratic Republic of the;Democratic Republic of the Congo|CF Central African Republic|CG Congo, Republic of the;Republic of the Congo;Congo|CH Switzerland|CI Cote d'Ivoire;Ivory Coast|CK Cook Islands|CL Chile|CM Cameroon|CN China|CO Colombia|CR Costa Rica|CU Cuba|CV Cabo Verde;Cape Verde|CW Curacao|CY Cyprus|CZ Czech Republic;Czechia|DE Germany|DJ Djibouti|DK Denmark|DM Dominica|DO Dominican Republic|DZ Algeria|EC Ecuador|EE Estonia|EG Egypt|EH Western Sahara|ER Eritrea|ES Spain|ET Ethiopia|FI Finland|FJ Fiji|FM Micronesia, Federated States of;Micronesia|FR France|GA Gabon|GB United Kingdom;UK;Great Britain;Britain|GD Grenada|GE Georgia|GG Guernsey|GH Ghana|GI Gibraltar|GM Gambia;The Gambia|GN Guinea|GQ Equatorial Guinea|GR Greece|GT Guatemala|GU Guam|GW Guinea-Bissau|GY Guyana|HK Hong Kong|HN Honduras|HR Croatia|HT Haiti|HU Hungary|ID Indonesia|IE Ireland|IL Israel|IM Isle of Man|IN India|IQ Iraq|IR Iran;Iran, Islamic Republic of|IS Iceland|IT Italy|JE Jersey|JM Jamaica|JO Jordan|JP Japan|KE Kenya|KG Kyrgyzstan|KH Cambodia|KI Kiribati|KM Comoros|KN Saint Kitts and Nevis;St. Kitts and Nevis|KP Korea, North;North Korea;Democratic People's Republic of Korea;Korea, Democratic People's Republic of|KR Korea, South;South Korea;Republic of Korea;Korea, Republic of|KW Kuwait|KY Cayman Islands|KZ Kazakhstan|LA Laos|LB Lebanon|LC Saint Lucia;St. Lucia|LI Liechtenstein|LK Sri Lanka|LR Liberia|LS Lesotho|LT Lithuania|LU Luxembourg|LV Latvia|LY Libya|MA Morocco|MC Monaco|MD Moldova|ME Montenegro|MG Madagascar|MH Marshall Islands|MK North Macedonia;Macedonia;North Macedonia, The Republic of|ML Mali|MM Burma;Myanmar|MN Mongolia|MO Macau;Macao|MR Mauritania|MT Malta|MU Mauritius|MV Maldives|MW Malawi|MX Mexico|MY Malaysia|MZ Mozambique|NA Namibia|NE Niger|NG Nigeria|NI Nicaragua|NL Netherlands|NO Norway|NP Nepal|NR Nauru|NZ New Zealand|OM Oman|PA Panama|PE Peru|PG Papua New Guinea|PH Philippines|PK Pakistan|PL Poland|PR Puerto Rico|PS Palestinian;West Bank;Gaza;Palestine|PT Portugal|PW Palau|PY Paraguay|QA Qatar|RO Romania|RS Serbia|RU Russia;Russian Federation|RW Rwanda|SA Saudi Arabia|SB Solomon Islands|SC Seychelles|SD Sudan|SE Sweden|SG Singapore|SI Slovenia|SK Slovakia|SL Sierra Leone|SM San Marino|SN Senegal|SO Somalia|SR Suriname|SS South Sudan|ST Sao Tome and Principe|SV El Salvador|SX Sint Maarten|SY Syria;Syrian Arab Republic|SZ Eswatini;Swaziland|TC Turks and Caicos Islands|TD Chad|TG Togo|TH Thailand|TJ Tajikistan|TL Timor-Leste;East Timor|TM Turkmenistan|TN Tunisia|TO Tonga|TR Turkey;Turkiye|TT Trinidad and Tobago|TV Tuvalu|TW Taiwan|TZ Tanzania|UA Ukraine|UG Uganda|US United States;USA;United States of America|UY Uruguay|UZ Uzbekistan|VA Holy See;Vatican City|VC Saint Vincent and the Grenadines|VE Venezuela|VG British Virgin Islands;Virgin Islands, British|VN Vietnam;Viet Nam|VU Vanuatu|WS Samoa|XK Kosovo|YE Yemen|ZA South Africa|ZM Zambia|ZW Zimbabwe`;

const BY_NAME = new Map<string, string>();
const CODES = new Set<string>();
for (const row of TABLE.split('|')) {
  const code = row.slice(0, 2);
  CODES.add(code);
  for (const name of row.slice(3).split(';')) BY_NAME.set(wordsOfName(name).join(' '), code);
}

const MEMO = new Map<string, string | null>();

/** The ISO 3166-1 alpha-2 code of a country given by code or by name; null when unknown. */
export function countryCodeOf(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  const known = MEMO.get(text);
  if (known !== undefined) return known;
  const code = codeOf(text.trim());
  if (MEMO.size < 10_000) MEMO.set(text, code);
  return code;
}

function codeOf(trimmed: string): string | null {
  if (/^[A-Za-z]{2}$/.test(trimmed)) {
    const code = trimmed.toUpperCase();
    // FtM writes the United Kingdom "gb" but some exports "uk".
    if (code === 'UK') return 'GB';
    return CODES.has(code) ? code : null;
  }
  return BY_NAME.get(wordsOfName(trimmed).join(' ')) ?? null;
}
