/**
 * The labelled set of the screening benchmark (docs/screening.md says how it is made): a list
 * of 20,000 entries written as OFAC's SDN.XML and read back by the real parser, and pairs of
 * (applicant, entry) labelled true or false.
 *
 * Names come from pools of Arabic, Russian, Hispanic and Chinese given names and surnames and
 * of business words, each Arabic name with its Arabic script and each Arabic and Russian name
 * with the Latin spellings the lists use for it. Entries are people (given, a middle name or a
 * patronymic half the time, surname; a date of birth and a nationality most of the time;
 * strong aliases in another spelling; a weak alias now and then) and businesses (words, an
 * industry, a legal form).
 *
 * True pairs, made from an entry: one of its own aliases; a transliteration (the name in Arabic
 * or Cyrillic script, or in another Latin spelling); its tokens in another order; one or two
 * typos; its middle name dropped. False pairs, for an entry: another entry's name that shares a
 * token with it; a name made from its tokens with the surname (or a business's distinctive
 * word) replaced. A pseudo-random generator with a fixed seed makes the same set every run.
 */
import { SdnXmlParser } from '../../src/shared/screening/formats/sdnXml.ts';
import type { ListEntry } from '../../src/shared/screening/listEntry.ts';
import type { ScreeningSubject } from '../../src/shared/screening/scoring.ts';

/** mulberry32: small, fast, seeded. */
export function randomOf(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <Value>(random: Random, values: readonly Value[]): Value =>
  values[Math.floor(random() * values.length)] as Value;

/** A name with its spellings: the first is the list's, the others variants; `script` its Arabic form. */
interface NameForm {
  spellings: string[];
  script?: string;
}

const ARABIC_GIVEN: NameForm[] = [
  { spellings: ['Mohammed', 'Muhammad', 'Mohamed', 'Mohammad'], script: 'محمد' },
  { spellings: ['Ahmed', 'Ahmad'], script: 'أحمد' },
  { spellings: ['Ali', 'Aly'], script: 'علي' },
  { spellings: ['Hassan', 'Hasan'], script: 'حسن' },
  { spellings: ['Hussein', 'Husayn', 'Hussain'], script: 'حسين' },
  { spellings: ['Omar', 'Umar'], script: 'عمر' },
  { spellings: ['Khalid', 'Khaled'], script: 'خالد' },
  { spellings: ['Ibrahim', 'Ebrahim'], script: 'إبراهيم' },
  { spellings: ['Youssef', 'Yusuf', 'Yousef'], script: 'يوسف' },
  { spellings: ['Mustafa', 'Mostafa'], script: 'مصطفى' },
  { spellings: ['Tariq', 'Tarek'], script: 'طارق' },
  { spellings: ['Walid', 'Waleed'], script: 'وليد' },
  { spellings: ['Jamal', 'Gamal'], script: 'جمال' },
  { spellings: ['Karim', 'Kareem'], script: 'كريم' },
  { spellings: ['Saeed', 'Said'], script: 'سعيد' },
  { spellings: ['Salim', 'Saleem'], script: 'سليم' },
  { spellings: ['Nasser', 'Nasir'], script: 'ناصر' },
  { spellings: ['Faisal', 'Faysal'], script: 'فيصل' },
  { spellings: ['Hamid', 'Hamed'], script: 'حامد' },
  { spellings: ['Rashid', 'Rasheed'], script: 'رشيد' },
  { spellings: ['Mahmoud', 'Mahmud'], script: 'محمود' },
  { spellings: ['Samir', 'Sameer'], script: 'سمير' },
  { spellings: ['Adel', 'Adil'], script: 'عادل' },
  { spellings: ['Majid', 'Majed'], script: 'ماجد' },
  { spellings: ['Imad', 'Emad'], script: 'عماد' },
  { spellings: ['Ziyad', 'Ziad'], script: 'زياد' },
  { spellings: ['Bassam', 'Basam'], script: 'بسام' },
  { spellings: ['Munir', 'Mounir'], script: 'منير' },
  { spellings: ['Anwar', 'Anouar'], script: 'أنور' },
  { spellings: ['Sultan', 'Soltan'], script: 'سلطان' },
];

const ARABIC_FAMILY: NameForm[] = [
  { spellings: ['Haddad', 'Hadad'], script: 'حداد' },
  { spellings: ['Mansour', 'Mansur'], script: 'منصور' },
  { spellings: ['Saleh', 'Salih'], script: 'صالح' },
  { spellings: ['Qasim', 'Kassem', 'Qassem'], script: 'قاسم' },
  { spellings: ['Jaber', 'Jabir'], script: 'جابر' },
  { spellings: ['Darwish', 'Darweesh'], script: 'درويش' },
  { spellings: ['Hamdan', 'Hamdane'], script: 'حمدان' },
  { spellings: ['Farouk', 'Faruq'], script: 'فاروق' },
  { spellings: ['Othman', 'Uthman'], script: 'عثمان' },
  { spellings: ['Zubair', 'Zubayr'], script: 'زبير' },
  { spellings: ['Nasrallah', 'Nasrullah'], script: 'نصرالله' },
  { spellings: ['Khoury', 'Khouri'], script: 'خوري' },
  { spellings: ['Shammari', 'Shamari'], script: 'شمري' },
  { spellings: ['Tikriti', 'Takriti'], script: 'تكريتي' },
  { spellings: ['Baghdadi', 'Bagdadi'], script: 'بغدادي' },
  { spellings: ['Suleiman', 'Sulayman', 'Sleiman'], script: 'سليمان' },
  { spellings: ['Yassin', 'Yasin'], script: 'ياسين' },
  { spellings: ['Barakat', 'Barakaat'], script: 'بركات' },
  { spellings: ['Hijazi', 'Hejazi'], script: 'حجازي' },
  { spellings: ['Rifai', 'Refai'], script: 'رفاعي' },
  { spellings: ['Masri', 'Misri'], script: 'مصري' },
  { spellings: ['Kubaisi', 'Kobaisi'], script: 'كبيسي' },
  { spellings: ['Dulaimi', 'Dulaymi'], script: 'دليمي' },
  { spellings: ['Jubouri', 'Jaburi'], script: 'جبوري' },
  { spellings: ['Ansari', 'Ansary'], script: 'أنصاري' },
];

const RUSSIAN_GIVEN: NameForm[] = [
  { spellings: ['Aleksandr', 'Alexander', 'Aleksander'] },
  { spellings: ['Yevgeniy', 'Evgeny', 'Yevgeny', 'Evgeniy'] },
  { spellings: ['Sergey', 'Sergei'] },
  { spellings: ['Dmitriy', 'Dmitry', 'Dmitri'] },
  { spellings: ['Yuriy', 'Yury', 'Yuri'] },
  { spellings: ['Andrey', 'Andrei'] },
  { spellings: ['Aleksey', 'Alexei', 'Alexey'] },
  { spellings: ['Mikhail', 'Michail'] },
  { spellings: ['Nikolay', 'Nikolai'] },
  { spellings: ['Vyacheslav', 'Viacheslav'] },
  { spellings: ['Vladimir', 'Wladimir'] },
  { spellings: ['Igor', 'Ihor'] },
  { spellings: ['Oleg', 'Oleh'] },
  { spellings: ['Pavel', 'Pawel'] },
  { spellings: ['Boris', 'Borys'] },
  { spellings: ['Anatoliy', 'Anatoly', 'Anatoli'] },
  { spellings: ['Gennadiy', 'Gennady'] },
  { spellings: ['Konstantin', 'Constantin'] },
  { spellings: ['Maksim', 'Maxim'] },
  { spellings: ['Viktor', 'Victor'] },
  { spellings: ['Arkadiy', 'Arkady'] },
  { spellings: ['Grigoriy', 'Grigory'] },
  { spellings: ['Timofey', 'Timofei'] },
  { spellings: ['Vasiliy', 'Vasily'] },
  { spellings: ['Roman', 'Raman'] },
];

const RUSSIAN_FAMILY: NameForm[] = [
  'Ivanov',
  'Petrov',
  'Sidorov',
  'Kuznetsov',
  'Smirnov',
  'Popov',
  'Volkov',
  'Sokolov',
  'Lebedev',
  'Kozlov',
  'Novikov',
  'Morozov',
  'Pavlov',
  'Golubev',
  'Vinogradov',
  'Bogdanov',
  'Tarasov',
  'Belov',
  'Komarov',
  'Orlov',
  'Makarov',
  'Gusev',
  'Titov',
  'Kuzmin',
  'Baranov',
  'Kulikov',
  'Stepanov',
  'Sorokin',
  'Romanov',
  'Borisov',
  'Gerasimov',
  'Lazarev',
  'Medvedev',
  'Nikitin',
  'Sobolev',
  'Ryabov',
  'Polyakov',
  'Danilov',
  'Zhukov',
  'Frolov',
  'Krylov',
  'Osipov',
]
  .map((name) => ({ spellings: [name] }))
  .concat([
    { spellings: ['Fyodorov', 'Fedorov'] },
    { spellings: ['Vorobyov', 'Vorobiev'] },
    { spellings: ['Belyaev', 'Beliaev'] },
    { spellings: ['Kiselev', 'Kiselyov'] },
    { spellings: ['Andreyev', 'Andreev'] },
    { spellings: ['Kovalyov', 'Kovalev'] },
    { spellings: ['Kudryavtsev', 'Kudriavtsev'] },
    { spellings: ['Alekseyev', 'Alekseev', 'Alexeyev'] },
    { spellings: ['Yakovlev', 'Iakovlev'] },
    { spellings: ['Korolyov', 'Korolev'] },
    { spellings: ['Grigoryev', 'Grigoriev'] },
    { spellings: ['Yershov', 'Ershov'] },
    { spellings: ['Maksimov', 'Maximov'] },
    { spellings: ['Zakharov', 'Sacharow'] },
  ]);

const PATRONYMICS = [
  'Vladimirovich',
  'Sergeyevich',
  'Aleksandrovich',
  'Nikolayevich',
  'Ivanovich',
  'Petrovich',
  'Viktorovich',
  'Mikhaylovich',
  'Andreyevich',
  'Yuryevich',
  'Borisovich',
  'Olegovich',
  'Pavlovich',
  'Igorevich',
  'Anatolyevich',
];

const HISPANIC_GIVEN = [
  'José',
  'Juan',
  'Luis',
  'Carlos',
  'Jorge',
  'Miguel',
  'Ángel',
  'Jesús',
  'Francisco',
  'Héctor',
  'Raúl',
  'Óscar',
  'Rubén',
  'Andrés',
  'Iván',
  'Sebastián',
  'Joaquín',
  'Ramón',
  'Álvaro',
  'Germán',
];
const HISPANIC_FAMILY = [
  'García',
  'Rodríguez',
  'Martínez',
  'Hernández',
  'López',
  'González',
  'Pérez',
  'Sánchez',
  'Ramírez',
  'Torres',
  'Flores',
  'Rivera',
  'Gómez',
  'Díaz',
  'Cruz',
  'Morales',
  'Reyes',
  'Gutiérrez',
  'Ortiz',
  'Chávez',
  'Ramos',
  'Ruiz',
  'Álvarez',
  'Mendoza',
  'Castillo',
  'Jiménez',
  'Vásquez',
  'Romero',
  'Herrera',
  'Medina',
  'Aguilar',
  'Vargas',
  'Guzmán',
  'Muñoz',
  'Castro',
  'Ortega',
  'Rojas',
  'Salazar',
  'Contreras',
  'Figueroa',
  'Cárdenas',
  'Cabrera',
  'Zamora',
  'Quintero',
  'Escobar',
  'Ochoa',
  'Beltrán',
  'Carrillo',
];
const CHINESE_FAMILY = [
  'Wang',
  'Li',
  'Zhang',
  'Liu',
  'Chen',
  'Yang',
  'Huang',
  'Zhao',
  'Wu',
  'Zhou',
  'Xu',
  'Sun',
  'Ma',
  'Zhu',
  'Hu',
  'Guo',
  'He',
  'Lin',
  'Gao',
  'Luo',
];
const CHINESE_SYLLABLES = [
  'Wei',
  'Jian',
  'Hong',
  'Ming',
  'Xiao',
  'Jun',
  'Hua',
  'Yong',
  'Qiang',
  'Lei',
  'Tao',
  'Bo',
  'Gang',
  'Ping',
  'Hai',
  'Feng',
  'Yan',
  'Jie',
  'Long',
  'Zhi',
  'Guo',
  'Dong',
  'Xin',
  'Cheng',
];
const BUSINESS_WORDS = [
  'Northern',
  'Eastern',
  'Golden',
  'Silver',
  'Global',
  'United',
  'Pacific',
  'Atlantic',
  'Caspian',
  'Baltic',
  'Sahara',
  'Crescent',
  'Phoenix',
  'Falcon',
  'Eagle',
  'Lotus',
  'Cedar',
  'Orient',
  'Delta',
  'Horizon',
  'Pioneer',
  'Summit',
  'Vertex',
  'Zenith',
  'Meridian',
  'Sovereign',
  'Imperial',
  'Royal',
  'Emerald',
  'Sapphire',
  'Diamond',
  'Granite',
  'Aurora',
  'Nimbus',
  'Polaris',
  'Triton',
  'Orion',
  'Vostok',
  'Zarya',
  'Rassvet',
  'Almaz',
  'Neftegaz',
  'Transoil',
  'Kavkaz',
  'Amur',
  'Volga',
  'Tigris',
  'Euphrates',
  'Levant',
  'Zagros',
];
const BUSINESS_INDUSTRY = [
  'Shipping',
  'Trading',
  'Petroleum',
  'Oil',
  'Logistics',
  'Marine',
  'Metals',
  'Mining',
  'Steel',
  'Chemicals',
  'Energy',
  'Investments',
  'Capital',
  'Exchange',
  'Industries',
  'Technologies',
  'Electronics',
  'Aviation',
  'Construction',
  'Engineering',
  'Textiles',
  'Foods',
  'Pharmaceuticals',
  'Tankers',
  'Freight',
];
const BUSINESS_FORMS = ['LLC', 'LTD', 'FZE', 'JSC', 'OOO', 'GmbH', 'S.A.', 'Co.', 'Company Limited', 'PJSC', 'Inc.'];
const NATIONS: Record<string, string[]> = {
  arabic: ['Iraq', 'Syria', 'Yemen', 'Lebanon', 'Egypt', 'Saudi Arabia', 'Jordan', 'Libya'],
  russian: ['Russia', 'Belarus', 'Ukraine', 'Kazakhstan'],
  hispanic: ['Mexico', 'Colombia', 'Venezuela', 'Cuba', 'Peru'],
  chinese: ['China', 'Hong Kong', 'Taiwan'],
};

/** Latin (BGN/PCGN-like) to Cyrillic, for a Russian name written in its own script. */
const TO_CYRILLIC: [string, string][] = [
  ['shch', 'щ'],
  ['zh', 'ж'],
  ['kh', 'х'],
  ['ts', 'ц'],
  ['ch', 'ч'],
  ['sh', 'ш'],
  ['yu', 'ю'],
  ['ya', 'я'],
  ['ye', 'е'],
  ['yo', 'ё'],
  ['iy', 'ий'],
  ['yy', 'ый'],
  ['ey', 'ей'],
  ['ay', 'ай'],
  ['oy', 'ой'],
  ['a', 'а'],
  ['b', 'б'],
  ['v', 'в'],
  ['g', 'г'],
  ['d', 'д'],
  ['e', 'е'],
  ['z', 'з'],
  ['i', 'и'],
  ['y', 'ы'],
  ['k', 'к'],
  ['l', 'л'],
  ['m', 'м'],
  ['n', 'н'],
  ['o', 'о'],
  ['p', 'п'],
  ['r', 'р'],
  ['s', 'с'],
  ['t', 'т'],
  ['u', 'у'],
  ['f', 'ф'],
  ['w', 'в'],
  ['x', 'кс'],
  ['c', 'к'],
  ['h', 'х'],
  ['q', 'к'],
  ['j', 'дж'],
];

export function cyrillicOf(latin: string): string {
  let out = '';
  const text = latin.toLowerCase();
  for (let at = 0; at < text.length;) {
    const pair = TO_CYRILLIC.find(([from]) => text.startsWith(from, at));
    if (pair === undefined) {
      out += text[at] ?? '';
      at += 1;
    } else {
      out += pair[1];
      at += pair[0].length;
    }
  }
  return out.charAt(0).toUpperCase() + out.slice(1);
}

type Culture = 'arabic' | 'russian' | 'hispanic' | 'chinese' | 'business';

/** An entry as the generator knows it: its parts, so true and false variants can be made of them. */
export interface GeneratedEntry {
  entry: ListEntry;
  culture: Culture;
  /** Given, middle (may be empty), family — each as a NameForm with the spelling the list uses first. */
  given: NameForm;
  middle: NameForm | null;
  family: NameForm;
  /** For a business: its words. */
  words: string[];
}

function dateOfBirth(random: Random): string {
  const year = 1945 + Math.floor(random() * 55);
  const month = 1 + Math.floor(random() * 12);
  const day = 1 + Math.floor(random() * 28);
  return `${String(year)}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function ofacDate(iso: string): string {
  return `${iso.slice(8, 10)} ${MONTH_NAMES[Number(iso.slice(5, 7)) - 1] ?? 'Jan'} ${iso.slice(0, 4)}`;
}

function formOf(spelling: string): NameForm {
  return { spellings: [spelling] };
}

function personOf(random: Random, culture: Exclude<Culture, 'business'>): Omit<GeneratedEntry, 'entry'> {
  if (culture === 'arabic') {
    return {
      culture,
      given: pick(random, ARABIC_GIVEN),
      middle: random() < 0.6 ? pick(random, ARABIC_GIVEN) : null,
      family: pick(random, ARABIC_FAMILY),
      words: [],
    };
  }
  if (culture === 'russian') {
    return {
      culture,
      given: pick(random, RUSSIAN_GIVEN),
      middle: random() < 0.6 ? formOf(pick(random, PATRONYMICS)) : null,
      family: pick(random, RUSSIAN_FAMILY),
      words: [],
    };
  }
  if (culture === 'hispanic') {
    return {
      culture,
      given: formOf(pick(random, HISPANIC_GIVEN)),
      middle: random() < 0.5 ? formOf(pick(random, HISPANIC_GIVEN)) : null,
      family: formOf(`${pick(random, HISPANIC_FAMILY)} ${pick(random, HISPANIC_FAMILY)}`),
      words: [],
    };
  }
  const syllables = [pick(random, CHINESE_SYLLABLES), pick(random, CHINESE_SYLLABLES)];
  const given = `${syllables[0] ?? ''}${(syllables[1] ?? '').toLowerCase()}`;
  return {
    culture,
    given: formOf(given),
    middle: null,
    family: formOf(pick(random, CHINESE_FAMILY)),
    words: syllables,
  };
}

function listedPersonName(parts: Omit<GeneratedEntry, 'entry'>, spelling = 0): string {
  const at = (form: NameForm): string =>
    form.spellings[Math.min(spelling, form.spellings.length - 1)] ?? form.spellings[0] ?? '';
  const given = [at(parts.given), parts.middle === null ? '' : at(parts.middle)]
    .filter((part) => part !== '')
    .join(' ');
  return `${at(parts.family).toUpperCase()}, ${given}`;
}

/** The generated list: 20,000 entries (by default), and what each was made of. */
export function generateList(size: number, seed = 40): GeneratedEntry[] {
  const random = randomOf(seed);
  const generated: GeneratedEntry[] = [];
  const seen = new Set<string>();
  while (generated.length < size) {
    const roll = random();
    const culture: Culture =
      roll < 0.35 ? 'arabic' : roll < 0.6 ? 'russian' : roll < 0.75 ? 'hispanic' : roll < 0.85 ? 'chinese' : 'business';
    const uid = String(30_000 + generated.length);
    if (culture === 'business') {
      const words = [
        pick(random, BUSINESS_WORDS),
        random() < 0.5 ? pick(random, BUSINESS_WORDS) : '',
        pick(random, BUSINESS_INDUSTRY),
      ].filter((word) => word !== '');
      const name = `${words.join(' ')} ${pick(random, BUSINESS_FORMS)}`.toUpperCase();
      if (seen.has(words.join(' ').toLowerCase())) continue;
      seen.add(words.join(' ').toLowerCase());
      const names: ListEntry['names'] = [{ full: name, type: 'primary', weak: false }];
      if (random() < 0.3)
        names.push({
          full: `${words.join(' ')} ${pick(random, BUSINESS_FORMS)}`.toUpperCase(),
          type: random() < 0.5 ? 'fka' : 'aka',
          weak: false,
        });
      generated.push({
        culture,
        given: formOf(''),
        middle: null,
        family: formOf(''),
        words,
        entry: {
          uid,
          kind: 'business',
          names,
          datesOfBirth: [],
          nationalities: [],
          addresses: [],
          identifiers:
            random() < 0.5
              ? [
                  {
                    type: 'Registration Number',
                    number: String(1_000_000_000 + Math.floor(random() * 8_999_999_999)),
                    country: null,
                  },
                ]
              : [],
          programs: ['SDGT'],
        },
      });
      continue;
    }
    const parts = personOf(random, culture);
    const primary = listedPersonName(parts);
    if (seen.has(primary)) continue;
    seen.add(primary);
    const names: ListEntry['names'] = [{ full: primary, type: 'primary', weak: false }];
    const variants = Math.max(
      parts.given.spellings.length,
      parts.family.spellings.length,
      parts.middle?.spellings.length ?? 1,
    );
    if (variants > 1 && random() < 0.4) names.push({ full: listedPersonName(parts, 1), type: 'aka', weak: false });
    if (random() < 0.1)
      names.push({
        full: `ABU ${pick(random, ARABIC_GIVEN).spellings[0] ?? ''}`.toUpperCase(),
        type: 'aka',
        weak: true,
      });
    generated.push({
      ...parts,
      entry: {
        uid,
        kind: 'person',
        names,
        datesOfBirth: random() < 0.8 ? [dateOfBirth(random)] : [],
        nationalities: random() < 0.7 ? [pick(random, NATIONS[culture] ?? ['Iraq'])] : [],
        addresses: [],
        identifiers: [],
        programs: [
          culture === 'russian'
            ? 'RUSSIA-EO14024'
            : culture === 'arabic'
              ? 'SDGT'
              : culture === 'hispanic'
                ? 'SDNTK'
                : 'CHINA-EO13959',
        ],
      },
    });
  }
  return generated;
}

function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The list as OFAC's SDN.XML writes it. */
export function sdnXmlOf(entries: readonly ListEntry[], published = '03/14/2025'): string {
  const parts: string[] = [
    '<?xml version="1.0" standalone="yes"?>',
    '<sdnList xmlns="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/XML">',
    `<publshInformation><Publish_Date>${published}</Publish_Date><Record_Count>${String(entries.length)}</Record_Count></publshInformation>`,
  ];
  let uid = 1;
  for (const entry of entries) {
    const [primary, ...aliases] = entry.names;
    const split = (full: string): string => {
      const comma = full.indexOf(', ');
      return comma === -1
        ? `<lastName>${xmlText(full)}</lastName>`
        : `<firstName>${xmlText(full.slice(comma + 2))}</firstName><lastName>${xmlText(full.slice(0, comma))}</lastName>`;
    };
    parts.push(
      `<sdnEntry><uid>${entry.uid}</uid>${split(primary?.full ?? '')}<sdnType>${entry.kind === 'person' ? 'Individual' : 'Entity'}</sdnType>` +
        `<programList>${entry.programs.map((program) => `<program>${program}</program>`).join('')}</programList>` +
        (entry.identifiers.length === 0
          ? ''
          : `<idList>${entry.identifiers.map((id) => `<id><uid>${String((uid += 1))}</uid><idType>${id.type}</idType><idNumber>${id.number}</idNumber></id>`).join('')}</idList>`) +
        (aliases.length === 0
          ? ''
          : `<akaList>${aliases.map((alias) => `<aka><uid>${String((uid += 1))}</uid><type>${alias.type === 'fka' ? 'f.k.a.' : 'a.k.a.'}</type><category>${alias.weak ? 'weak' : 'strong'}</category>${split(alias.full)}</aka>`).join('')}</akaList>`) +
        (entry.nationalities.length === 0
          ? ''
          : `<nationalityList>${entry.nationalities.map((country) => `<nationality><uid>${String((uid += 1))}</uid><country>${country}</country><mainEntry>true</mainEntry></nationality>`).join('')}</nationalityList>`) +
        (entry.datesOfBirth.length === 0
          ? ''
          : `<dateOfBirthList>${entry.datesOfBirth.map((date) => `<dateOfBirthItem><uid>${String((uid += 1))}</uid><dateOfBirth>${ofacDate(date)}</dateOfBirth><mainEntry>true</mainEntry></dateOfBirthItem>`).join('')}</dateOfBirthList>`) +
        '</sdnEntry>',
    );
  }
  parts.push('</sdnList>');
  return parts.join('\n');
}

/** The generated list, written as SDN.XML and read back by the real parser. */
export function parsedListOf(generated: readonly GeneratedEntry[]): ListEntry[] {
  const parser = new SdnXmlParser('SDN.XML');
  const xml = sdnXmlOf(generated.map((item) => item.entry));
  for (let start = 0; start < xml.length; start += 65_536) parser.write(xml.slice(start, start + 65_536));
  parser.end();
  return parser.entries;
}

export type PairKind =
  'alias' | 'transliteration' | 'token-swap' | 'typo' | 'dropped-middle' | 'other-entry' | 'shared-tokens';

export interface LabelledPair {
  kind: PairKind;
  truth: boolean;
  subject: ScreeningSubject;
  entryUid: string;
}

function typo(random: Random, word: string): string {
  if (word.length < 4) return word;
  const at = 1 + Math.floor(random() * (word.length - 2));
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const roll = random();
  if (roll < 0.3) return word.slice(0, at) + word.slice(at + 1); // deletion
  if (roll < 0.55) return word.slice(0, at) + pick(random, letters.split('')) + word.slice(at); // insertion
  if (roll < 0.8) return word.slice(0, at) + pick(random, letters.split('')) + word.slice(at + 1); // substitution
  return word.slice(0, at - 1) + (word[at] ?? '') + (word[at - 1] ?? '') + word.slice(at + 1); // transposition
}

function applicantName(given: string, middle: string, family: string): string {
  return [given, middle, family].filter((part) => part !== '').join(' ');
}

function personSubject(random: Random, item: GeneratedEntry, name: string, keepFacts: boolean): ScreeningSubject {
  const dob = item.entry.datesOfBirth[0];
  const nationality = item.entry.nationalities[0];
  return {
    kind: 'person',
    names: [name],
    dateOfBirth: keepFacts && dob !== undefined && random() < 0.5 ? dob : null,
    nationalities: keepFacts && nationality !== undefined && random() < 0.5 ? [nationality] : [],
  };
}

function spelled(form: NameForm | null, index = 0): string {
  if (form === null) return '';
  return form.spellings[Math.min(index, form.spellings.length - 1)] ?? '';
}

/** A true variant of an entry, of the kind asked; null when the entry has none of that kind. */
function trueVariant(random: Random, item: GeneratedEntry, kind: PairKind): ScreeningSubject | null {
  const entry = item.entry;
  if (item.culture === 'business') {
    const words = item.words;
    if (kind === 'alias') {
      const alias = entry.names.find((name) => name.type !== 'primary');
      return alias === undefined ? null : { kind: 'business', names: [alias.full] };
    }
    if (kind === 'typo')
      return {
        kind: 'business',
        names: [
          `${words.map((word, index) => (index === words.length - 1 || random() < 0.5 ? typo(random, word) : word)).join(' ')} ${pick(random, BUSINESS_FORMS)}`,
        ],
      };
    if (kind === 'token-swap' && words.length > 1) return { kind: 'business', names: [[...words].reverse().join(' ')] };
    if (kind === 'dropped-middle' && words.length > 2)
      return { kind: 'business', names: [`${words[0] ?? ''} ${words[2] ?? ''} ${pick(random, BUSINESS_FORMS)}`] };
    if (kind === 'transliteration') return { kind: 'business', names: [words.join(' ').toLowerCase()] };
    return null;
  }
  const given = spelled(item.given);
  const middle = spelled(item.middle);
  const family = spelled(item.family);
  switch (kind) {
    case 'alias': {
      const alias = entry.names.find((name) => name.type !== 'primary' && !name.weak);
      if (alias === undefined) return null;
      const [last, first] = alias.full.split(', ');
      return personSubject(random, item, applicantName(first ?? '', '', last ?? ''), true);
    }
    case 'transliteration': {
      if (item.culture === 'arabic' && item.given.script !== undefined && item.family.script !== undefined) {
        const script = [item.given.script, item.middle?.script ?? '', item.family.script]
          .filter((part) => part !== '')
          .join(' ');
        return personSubject(random, item, script, true);
      }
      if (item.culture === 'russian') {
        if (random() < 0.5)
          return personSubject(
            random,
            item,
            [given, middle, family]
              .filter((part) => part !== '')
              .map(cyrillicOf)
              .join(' '),
            true,
          );
        const variant = (form: NameForm | null): string => (form === null ? '' : pick(random, form.spellings));
        return personSubject(
          random,
          item,
          applicantName(variant(item.given), variant(item.middle), variant(item.family)),
          true,
        );
      }
      if (item.culture === 'arabic')
        return personSubject(
          random,
          item,
          applicantName(
            pick(random, item.given.spellings),
            spelled(item.middle, 1),
            pick(random, item.family.spellings),
          ),
          true,
        );
      if (item.culture === 'hispanic')
        return personSubject(
          random,
          item,
          applicantName(given, middle, family).normalize('NFKD').replace(/\p{M}/gu, ''),
          true,
        );
      // Chinese: family name first, the given name's two syllables apart.
      return personSubject(random, item, `${family} ${item.words.join(' ')}`, true);
    }
    case 'token-swap':
      return personSubject(random, item, applicantName(family, given, middle), true);
    case 'typo': {
      const edits = random() < 0.5 ? 1 : 2;
      const parts = [given, middle, family];
      for (let edit = 0; edit < edits; edit += 1) {
        const index = pick(random, [0, 2, ...(middle === '' ? [] : [1])]);
        parts[index] = typo(random, parts[index] ?? '');
      }
      return personSubject(random, item, applicantName(parts[0] ?? '', parts[1] ?? '', parts[2] ?? ''), true);
    }
    case 'dropped-middle':
      return middle === '' ? null : personSubject(random, item, applicantName(given, '', family), true);
    default:
      return null;
  }
}

const TRUE_KINDS: PairKind[] = ['alias', 'transliteration', 'token-swap', 'typo', 'dropped-middle'];

/**
 * `count` true pairs (spread over the kinds) and twice as many false ones, from entries drawn
 * at random. `byToken`: the entries holding each folded token, for false pairs sharing one.
 */
export function labelledPairs(generated: readonly GeneratedEntry[], count: number, seed = 41): LabelledPair[] {
  const random = randomOf(seed);
  const pairs: LabelledPair[] = [];
  const tokensOf = (item: GeneratedEntry): string[] =>
    item.culture === 'business'
      ? item.words.map((word) => word.toLowerCase())
      : [spelled(item.given), spelled(item.family).split(' ')[0] ?? ''].map((word) => word.toLowerCase());
  const byToken = new Map<string, GeneratedEntry[]>();
  for (const item of generated)
    for (const token of tokensOf(item)) byToken.set(token, [...(byToken.get(token) ?? []), item]);
  let made = 0;
  while (made < count) {
    const item = pick(random, generated);
    const kind = TRUE_KINDS[made % TRUE_KINDS.length] ?? 'typo';
    const subject = trueVariant(random, item, kind);
    if (subject === null) continue;
    pairs.push({ kind, truth: true, subject, entryUid: item.entry.uid });
    made += 1;
    // False: another entry that shares a token with this one, its name as an applicant's.
    const sharing = (byToken.get(pick(random, tokensOf(item))) ?? []).filter(
      (other) =>
        other !== item &&
        other.culture === item.culture &&
        (item.culture === 'business'
          ? other.words.join(' ') !== item.words.join(' ')
          : !other.family.spellings.some((spelling) => item.family.spellings.includes(spelling))),
    );
    const other = sharing.length === 0 ? null : pick(random, sharing);
    if (other !== null) {
      const subjectOfOther: ScreeningSubject =
        other.culture === 'business'
          ? { kind: 'business', names: [`${other.words.join(' ')} ${pick(random, BUSINESS_FORMS)}`] }
          : personSubject(
              random,
              other,
              applicantName(spelled(other.given), spelled(other.middle), spelled(other.family)),
              true,
            );
      pairs.push({ kind: 'other-entry', truth: false, subject: subjectOfOther, entryUid: item.entry.uid });
    }
    // False: a made-up name with this entry's tokens but another surname (or distinctive word).
    if (item.culture === 'business') {
      const words = [...item.words];
      const replaced = words.length - 2 >= 0 ? words.length - 2 : 0;
      words[replaced] = pick(
        random,
        BUSINESS_WORDS.filter((word) => word !== words[replaced]),
      );
      pairs.push({
        kind: 'shared-tokens',
        truth: false,
        subject: { kind: 'business', names: [`${words.join(' ')} ${pick(random, BUSINESS_FORMS)}`] },
        entryUid: item.entry.uid,
      });
    } else {
      const pool =
        item.culture === 'arabic'
          ? ARABIC_FAMILY
          : item.culture === 'russian'
            ? RUSSIAN_FAMILY
            : item.culture === 'hispanic'
              ? HISPANIC_FAMILY.map(formOf)
              : CHINESE_FAMILY.map(formOf);
      const taken = item.family.spellings.flatMap((spelling) => spelling.split(' '));
      const others = pool.filter((form) => !form.spellings.some((spelling) => taken.includes(spelling)));
      const family = pick(random, others);
      const familyName =
        item.culture === 'hispanic' ? `${spelled(family)} ${spelled(pick(random, others))}` : spelled(family);
      pairs.push({
        kind: 'shared-tokens',
        truth: false,
        subject: {
          kind: 'person',
          names: [applicantName(spelled(item.given), spelled(item.middle), familyName)],
          dateOfBirth: random() < 0.5 ? dateOfBirth(random) : null,
        },
        entryUid: item.entry.uid,
      });
    }
  }
  return pairs;
}
