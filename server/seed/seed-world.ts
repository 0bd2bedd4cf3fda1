// The small, hand-shaped part of the demo world: partners, businesses, merchants, configurations, users and
// their roles, notifications, tickets and audit events, plus the lookups the bulk SQL draws from.
// A pure function of (randomSeed, now, passwordHash): the same arguments give the same rows.
import type * as schema from '../db/schema.ts';
import { createRandom, type Random } from './seed-random.ts';

type Insert<T extends { $inferInsert: unknown }> = T['$inferInsert'];

export type DemoIds = {
  ownerBusinessId: string;
  soloBusinessId: string;
  soloMerchantId: string;
  financeBusinessId: string;
  developerBusinessId: string;
  vtBusinessId: string;
  vtMerchantId: string;
  partnerId: string;
  expiringBusinessId: string;
  merchantWithoutPayments: string;
};

/** One merchant as the bulk generator sees it (only merchants that take payments). */
export type MerchantLookup = {
  idx: number;
  merchant_id: string;
  business_id: string;
  partner_id: string | null;
  cur1: string;
  cur2: string;
  cur3: string;
  ncur: number;
  cfg1: string;
  cfg2: string;
  cfg3: string;
  ncfg: number;
  /** Typical basket in GBP pence; the SQL converts it to the payment's currency. */
  base: number;
  item1: string;
  item2: string;
  item3: string;
  /** Share of the payments (relative). */
  weight: number;
};

export type Customer = { idx: number; email: string; order: Record<string, unknown> };

export type World = {
  partners: Insert<typeof schema.partners>[];
  businesses: Insert<typeof schema.businesses>[];
  merchants: Insert<typeof schema.merchants>[];
  configurations: Insert<typeof schema.configurations>[];
  users: Insert<typeof schema.users>[];
  userRoles: Insert<typeof schema.userRoles>[];
  notifications: Insert<typeof schema.notifications>[];
  notificationReads: Insert<typeof schema.notificationReads>[];
  tickets: Insert<typeof schema.tickets>[];
  ticketComments: Insert<typeof schema.ticketComments>[];
  auditEvents: Insert<typeof schema.auditEvents>[];
  demo: DemoIds;
  merchantLookup: MerchantLookup[];
  customers: Customer[];
};

export const demoPassword = 'portal-demo';

export const demoAccounts: readonly { email: string; description: string }[] = [
  { email: 'admin@demo.test', description: 'Technical admin (internal, root level): everything' },
  { email: 'service@demo.test', description: 'Customer service (internal, root level)' },
  { email: 'readonly@demo.test', description: 'Internal read only (internal, root level)' },
  { email: 'risk@demo.test', description: 'Risk analyst (internal, root level)' },
  {
    email: 'owner@demo.test',
    description: 'Owner of Harbour & Finch Homeware Ltd (100001): five merchants, one of them without payments; automatic remittance off',
  },
  { email: 'solo@demo.test', description: 'Owner of Little Wren Bakery Ltd (100002), a business with exactly one merchant' },
  { email: 'finance@demo.test', description: 'Finance on Pennine Outdoor Supplies Ltd (100003)' },
  { email: 'developer@demo.test', description: 'External developer on Brightwater Digital Ltd (100004)' },
  { email: 'vt@demo.test', description: 'Virtual terminal on one merchant of Thistle & Rose Florists Ltd (100005) only, no business role' },
  { email: 'partner@demo.test', description: 'Owner at partner level of Northbridge Payments Partners Ltd (PRT0001, nine businesses)' },
  { email: 'expiring@demo.test', description: 'Owner of Calder Valley Cycles Ltd (100006); password expires 3 days after seeding' },
  {
    email: 'expired@demo.test',
    description: 'Finance on Little Wren Bakery Ltd (100002); password expired 2 days before seeding: a new one is asked for at sign-in',
  },
  { email: 'billing@demo.test', description: 'Finance admin (internal, root level): billing runs, invoices and credit notes' },
];

// ---------------------------------------------------------------------------------------------------
// Hand-authored tables

type Sector = { base: number; items: readonly [string, string, string] };

const sectors: Record<string, Sector> = {
  homeware: { base: 4200, items: ['Linen cushion cover', 'Stoneware dinner set', 'Oak serving board'] },
  bakery: { base: 650, items: ['Sourdough loaf', 'Coffee and pastry', 'Celebration cake'] },
  outdoor: { base: 8500, items: ['Waterproof jacket', 'Walking boots', 'Two-person tent'] },
  software: { base: 2900, items: ['Monthly subscription', 'Annual licence', 'Additional seat'] },
  florist: { base: 4500, items: ['Seasonal bouquet', 'Wedding buttonholes', 'Sympathy wreath'] },
  cycles: { base: 24000, items: ['Hybrid bicycle', 'Annual service', 'Cycle helmet'] },
  books: { base: 1800, items: ['Hardback novel', 'Book token', 'Picture book'] },
  coffee: { base: 1400, items: ['Single-origin beans 250 g', 'Espresso subscription', 'Brewing kit'] },
  travel: { base: 45000, items: ['City break package', 'Rail and hotel bundle', 'Travel insurance'] },
  motors: { base: 25000, items: ['Full service', 'MOT test', 'Tyre replacement'] },
  garden: { base: 3500, items: ['Bedding plants tray', 'Compost 50 l', 'Garden bench'] },
  pets: { base: 2800, items: ['Dry dog food 12 kg', 'Cat scratching post', 'Aquarium filter'] },
  furniture: { base: 60000, items: ['Three-seater sofa', 'Oak dining table', 'Bedside cabinet'] },
  cosmetics: { base: 2400, items: ['Facial serum', 'Hand cream gift set', 'Lip balm trio'] },
  textiles: { base: 15000, items: ['Harris tweed jacket', 'Lambswool scarf', 'Flat cap'] },
  theatre: { base: 3800, items: ['Stalls ticket', 'Matinee ticket', 'Souvenir programme'] },
  brewery: { base: 3200, items: ['Mixed case of ales', 'Brewery tour', 'Gift pack'] },
  veterinary: { base: 9500, items: ['Consultation', 'Vaccination booster', 'Dental treatment'] },
  optician: { base: 12000, items: ['Eye examination', 'Varifocal lenses', 'Contact lens plan'] },
  dental: { base: 8500, items: ['Check-up and clean', 'Whitening treatment', 'Hygienist visit'] },
  takeaway: { base: 1200, items: ['Cod and chips', 'Family meal deal', 'Mushy peas'] },
  fitness: { base: 3500, items: ['Monthly membership', 'Personal training session', 'Class pass'] },
  lettings: { base: 95000, items: ['Holding deposit', 'Monthly rent', 'Tenancy renewal fee'] },
  tailoring: { base: 28000, items: ['Bespoke suit deposit', 'Alterations', 'Shirt fitting'] },
  grocer: { base: 2600, items: ['Weekly vegetable box', 'Free-range eggs', 'Cheese selection'] },
  jeweller: { base: 9000, items: ['Whitby jet pendant', 'Silver earrings', 'Ring resizing'] },
  toys: { base: 2200, items: ['Wooden train set', 'Jigsaw puzzle', 'Board game'] },
  nursery: { base: 4000, items: ['Fruit tree', 'Hedging plants', 'Perennial collection'] },
  surf: { base: 5500, items: ['Group surf lesson', 'Wetsuit hire', 'Private coaching'] },
  records: { base: 2400, items: ['Vinyl LP', 'Record cleaning kit', 'Turntable cartridge'] },
  hotel: { base: 18000, items: ['Double room, one night', 'Dinner, bed and breakfast', 'Spa day'] },
  builders: { base: 14000, items: ['Timber order', 'Cement and aggregates', 'Tool hire'] },
  tearoom: { base: 1100, items: ['Cream tea', 'Afternoon tea for two', 'Scone box'] },
  parking: { base: 900, items: ['Day parking', 'Evening parking', 'Monthly permit'] },
  wine: { base: 6500, items: ['Mixed case of wine', 'Sparkling rosé', 'Tasting evening'] },
  stationery: { base: 1500, items: ['Notebook set', 'Fountain pen ink', 'Greeting cards'] },
  childcare: { base: 42000, items: ['Monthly nursery fees', 'Holiday club week', 'Registration fee'] },
  gallery: { base: 35000, items: ['Original painting', 'Limited edition print', 'Framing service'] },
  tools: { base: 5200, items: ['Cordless drill', 'Socket set', 'Workbench'] },
  aviation: { base: 120000, items: ['Flight training block', 'Trial lesson', 'Ground school course'] },
};

const partnerRows: readonly (readonly [string, string])[] = [
  ['PRT0001', 'Northbridge Payments Partners Ltd'],
  ['PRT0002', 'Albion Commerce Solutions Ltd'],
  ['PRT0003', 'Pennant Retail Technology Ltd'],
];

/** name, sector, partner (1–3, 0 none), live, camAutoRemittance, number of merchants. The first six are the demo businesses. */
const businessRows: readonly (readonly [string, string, number, boolean, boolean, number])[] = [
  ['Harbour & Finch Homeware Ltd', 'homeware', 1, true, false, 5],
  ['Little Wren Bakery Ltd', 'bakery', 0, true, true, 1],
  ['Pennine Outdoor Supplies Ltd', 'outdoor', 1, true, false, 4],
  ['Brightwater Digital Ltd', 'software', 2, true, true, 3],
  ['Thistle & Rose Florists Ltd', 'florist', 0, true, true, 3],
  ['Calder Valley Cycles Ltd', 'cycles', 0, true, true, 2],
  ['Marlowe Street Books Ltd', 'books', 1, true, true, 2],
  ['Cobble Lane Coffee Roasters Ltd', 'coffee', 1, true, true, 4],
  ['Northgate Travel Ltd', 'travel', 3, true, false, 6],
  ['Severn Bridge Motors Ltd', 'motors', 2, true, true, 2],
  ['Ashdown Garden Centre Ltd', 'garden', 1, true, true, 3],
  ['Kingfisher Pet Supplies Ltd', 'pets', 0, false, true, 2],
  ['Oakridge Furniture Company Ltd', 'furniture', 1, true, false, 4],
  ['Bramble & Sage Cosmetics Ltd', 'cosmetics', 2, true, true, 3],
  ['Highland Tweed Company Ltd', 'textiles', 3, true, true, 2],
  ['Lantern Theatre Company Ltd', 'theatre', 0, true, true, 3],
  ['Blackthorn Brewing Co. Ltd', 'brewery', 1, true, true, 3],
  ['Meadowbank Veterinary Practice Ltd', 'veterinary', 0, true, true, 2],
  ['Fenwick & Daughters Opticians Ltd', 'optician', 2, true, true, 4],
  ['Castlegate Dental Care Ltd', 'dental', 0, true, false, 2],
  ['Quayside Fish & Chips Ltd', 'takeaway', 1, true, true, 5],
  ['Silverbirch Fitness Ltd', 'fitness', 3, true, true, 3],
  ['Redbrick Property Lettings Ltd', 'lettings', 0, true, true, 2],
  ['Albion Tailoring Ltd', 'tailoring', 0, false, true, 1],
  ['Greenhithe Grocers Ltd', 'grocer', 1, true, true, 5],
  ['Whitby Jet Jewellers Ltd', 'jeweller', 0, true, true, 2],
  ['Clockwork Toy Company Ltd', 'toys', 2, true, true, 3],
  ['Elm Tree Nurseries Ltd', 'nursery', 0, false, true, 2],
  ['Saltmarsh Surf School Ltd', 'surf', 0, true, true, 2],
  ['Camden Lock Records Ltd', 'records', 3, true, true, 3],
  ['Hawthorn Hotel Group plc', 'hotel', 2, true, false, 8],
  ['Yorkstone Builders Merchants Ltd', 'builders', 0, true, true, 3],
  ['Moorland Tea Rooms Ltd', 'tearoom', 0, true, true, 2],
  ['Riverside Parking Services Ltd', 'parking', 0, false, true, 4],
  ['Tamar Valley Wines Ltd', 'wine', 3, true, true, 3],
  ['Copperfield Stationers Ltd', 'stationery', 0, true, false, 2],
  ['Bluebell Childcare Ltd', 'childcare', 0, true, true, 2],
  ['St Ives Gallery Ltd', 'gallery', 0, false, true, 1],
  ['Ironbridge Tools Ltd', 'tools', 0, true, true, 3],
  ['Kestrel Aviation Training Ltd', 'aviation', 0, true, true, 4],
];

const demoBusinessCount = 6;

const ukSuffixes = [
  'London',
  'Manchester',
  'Leeds',
  'Bristol',
  'Edinburgh',
  'Glasgow',
  'Cardiff',
  'Birmingham',
  'Newcastle',
  'York',
  'Brighton',
  'Norwich',
  'Telephone Sales',
  'Mobile App',
  'Events',
  'Wholesale',
];
const suffixesByCurrency: Record<string, readonly string[]> = {
  EUR: ['Europe', 'Dublin', 'Amsterdam', 'Paris', 'Brussels'],
  USD: ['USA', 'New York', 'Boston'],
  JPY: ['Japan', 'Tokyo'],
};

const currencySets: readonly (readonly [readonly string[], number])[] = [
  [['GBP'], 70],
  [['GBP', 'EUR'], 10],
  [['EUR'], 7],
  [['USD'], 4],
  [['GBP', 'USD'], 4],
  [['EUR', 'GBP'], 2],
  [['GBP', 'EUR', 'USD'], 2],
  [['JPY'], 1],
];

const givenNames = [
  'Oliver',
  'Amelia',
  'George',
  'Isla',
  'Harry',
  'Ava',
  'Noah',
  'Mia',
  'Jack',
  'Sophie',
  'Leo',
  'Grace',
  'Arthur',
  'Freya',
  'Oscar',
  'Emily',
  'Charlie',
  'Poppy',
  'Jacob',
  'Ella',
  'Thomas',
  'Lily',
  'Alfie',
  'Evie',
  'Muhammad',
  'Aisha',
  'Rohan',
  'Zara',
  'Declan',
  'Siobhan',
  'Kwame',
  'Chloe',
  'Ewan',
  'Niamh',
  'Dylan',
  'Megan',
  'Rory',
  'Imogen',
  'Callum',
  'Harriet',
  'Aled',
  'Cerys',
  'Joseph',
  'Lucy',
  'Samuel',
  'Holly',
  'Daniel',
  'Anya',
  'Ibrahim',
  'Maya',
  'Fraser',
  'Eilidh',
  'Theo',
  'Ruby',
];
const familyNames = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Johnson',
  'Davies',
  'Patel',
  'Robinson',
  'Wright',
  'Thompson',
  'Evans',
  'Walker',
  'White',
  'Roberts',
  'Green',
  'Hall',
  'Thomas',
  'Clarke',
  'Jackson',
  'Wood',
  'Harris',
  'Edwards',
  'Turner',
  'Martin',
  'Cooper',
  'Hill',
  'Ward',
  'Hughes',
  'Moore',
  'Clark',
  'King',
  'Harrison',
  'Lewis',
  'Baker',
  'Lee',
  'Allen',
  'Morris',
  'Khan',
  'Scott',
  'Watson',
  'Parker',
  'Bennett',
  'Young',
  'Phillips',
  'Mitchell',
  'Begum',
  'Ahmed',
  'Kaur',
  'Campbell',
  'Murray',
  'MacDonald',
  'Fraser',
  'Reid',
  'Kowalski',
  'Okoye',
  'Sutherland',
  'Doherty',
  'Lloyd',
];
const middleNames = ['James', 'Rose', 'Alexander', 'Louise', 'Edward', 'May', 'William', 'Jane', 'David', 'Anne'];

type Town = { city: string; country: string; postcode: (random: Random) => string };
const letters = 'ABDEFGHJLNPQRSTUWXYZ';
const ukPostcode = (area: string) => (random: Random) =>
  `${area}${random.int(1, 20)} ${random.int(1, 9)}${random.pick([...letters])}${random.pick([...letters])}`;
const towns: readonly (readonly [Town, number])[] = [
  [{ city: 'London', country: 'GB', postcode: ukPostcode('SE') }, 14],
  [{ city: 'London', country: 'GB', postcode: ukPostcode('N') }, 8],
  [{ city: 'Manchester', country: 'GB', postcode: ukPostcode('M') }, 7],
  [{ city: 'Leeds', country: 'GB', postcode: ukPostcode('LS') }, 5],
  [{ city: 'Bristol', country: 'GB', postcode: ukPostcode('BS') }, 5],
  [{ city: 'Birmingham', country: 'GB', postcode: ukPostcode('B') }, 6],
  [{ city: 'Edinburgh', country: 'GB', postcode: ukPostcode('EH') }, 4],
  [{ city: 'Glasgow', country: 'GB', postcode: ukPostcode('G') }, 4],
  [{ city: 'Cardiff', country: 'GB', postcode: ukPostcode('CF') }, 3],
  [{ city: 'Newcastle upon Tyne', country: 'GB', postcode: ukPostcode('NE') }, 3],
  [{ city: 'Norwich', country: 'GB', postcode: ukPostcode('NR') }, 2],
  [{ city: 'York', country: 'GB', postcode: ukPostcode('YO') }, 2],
  [{ city: 'Truro', country: 'GB', postcode: ukPostcode('TR') }, 1],
  [{ city: 'Belfast', country: 'GB', postcode: ukPostcode('BT') }, 2],
  [{ city: 'Dublin', country: 'IE', postcode: (r) => `D${String(r.int(1, 24)).padStart(2, '0')} ${r.pick([...letters])}${r.int(100, 999)}` }, 3],
  [{ city: 'Amsterdam', country: 'NL', postcode: (r) => `10${r.int(10, 99)} ${r.pick([...letters])}${r.pick([...letters])}` }, 3],
  [{ city: 'Brussels', country: 'BE', postcode: (r) => `10${r.int(0, 9)}0` }, 2],
  [{ city: 'Paris', country: 'FR', postcode: (r) => `750${String(r.int(1, 20)).padStart(2, '0')}` }, 2],
  [{ city: 'Berlin', country: 'DE', postcode: (r) => `10${r.int(100, 999)}` }, 2],
  [{ city: 'New York', country: 'US', postcode: (r) => `100${String(r.int(1, 99)).padStart(2, '0')}` }, 2],
  [{ city: 'Tokyo', country: 'JP', postcode: (r) => `1${r.int(0, 9)}${r.int(0, 9)}-${r.int(1000, 9999)}` }, 1],
];
const streets = [
  'High Street',
  'Station Road',
  'Church Lane',
  'Victoria Road',
  'Mill Lane',
  'Park Avenue',
  'Queen Street',
  'The Crescent',
  'Kings Road',
  'Orchard Close',
  'Riverside Walk',
  'Elm Grove',
  'Market Place',
  'Chapel Street',
  'Meadow View',
  'Green Lane',
];
const titles = ['Mr.', 'Mrs.', 'Miss.', 'Dr.', 'Ms.'];
const emailDomains = ['example.com', 'example.org', 'example.net'];

// ---------------------------------------------------------------------------------------------------

const day = 86_400_000;
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
/** A copy without null members (absent = not given), to keep the bulk order documents small. */
const withoutNulls = (value: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, v && typeof v === 'object' && !Array.isArray(v) ? withoutNulls(v as Record<string, unknown>) : v]),
  );
const ascii = (text: string) => text.toLowerCase().replace(/[^a-z]/g, '');
const shortName = (name: string) => name.replace(/ (Ltd|plc)$/, '').replace(/ (Company|Co\.)$/, '');

/** Independent random streams per part of the world, so changing one part leaves the others alone. */
const stream = (seed: number, part: number) => createRandom((Math.imul(seed, 0x9e3779b1) ^ Math.imul(part, 0x85ebca6b)) >>> 0);

export function buildWorld(randomSeed: number, now: Date, passwordHash: string): World {
  const anchor = now.getTime();
  const at = (msBefore: number) => new Date(anchor - msBefore);

  // Partners and businesses ----------------------------------------------------------------------
  const orgRandom = stream(randomSeed, 1);
  const partners = partnerRows.map(([id, name]) => ({ id, name, createdAt: at((3000 + orgRandom.int(0, 700)) * day) }));
  const businesses = businessRows.map(([name, , partner, live, camAutoRemittance], index) => ({
    id: String(100001 + index),
    name,
    partnerId: partner === 0 ? null : (partnerRows[partner - 1]?.[0] ?? null),
    live,
    camAutoRemittance,
    businessUrl: `https://www.${slug(shortName(name))}.example`,
    createdAt: at((2300 + orgRandom.int(0, 700)) * day),
  }));
  const businessAt = (index: number) => {
    const business = businesses[index];
    if (!business) throw new Error(`no business ${index}`);
    return business;
  };

  // Merchants ------------------------------------------------------------------------------------
  const merchantRandom = stream(randomSeed, 2);
  const merchants: World['merchants'] = [];
  const merchantSector = new Map<string, Sector>();
  const fixedOwnerMerchants: readonly (readonly [readonly string[], string, boolean])[] = [
    [['GBP', 'EUR'], 'Online', false],
    [['GBP'], 'London', true],
    [['JPY'], 'Japan', false],
    [['USD', 'GBP'], 'USA', false],
    [['GBP'], 'Manchester', false],
  ];
  businessRows.forEach(([name, sectorName, , businessLive, , count], businessIndex) => {
    const business = businessAt(businessIndex);
    const sector = sectors[sectorName];
    if (!sector) throw new Error(`unknown sector ${sectorName}`);
    const short = shortName(name);
    const used = new Set<string>();
    for (let n = 0; n < count; n += 1) {
      const id = String(200001 + merchants.length);
      let currencies: readonly string[];
      let suffix: string;
      let gross = false;
      const fixed = businessIndex === 0 ? fixedOwnerMerchants[n] : undefined;
      if (fixed) {
        [currencies, suffix, gross] = fixed;
      } else if (businessIndex < demoBusinessCount) {
        currencies = n === 0 ? ['GBP'] : merchantRandom.weighted(currencySets.slice(0, 5));
        suffix = '';
      } else {
        currencies = merchantRandom.weighted(currencySets);
        gross = merchantRandom.chance(0.14);
        suffix = '';
      }
      if (!suffix) {
        const primary = currencies[0] ?? 'GBP';
        const pool = primary === 'GBP' ? (used.has('Online') ? ukSuffixes : ['Online']) : (suffixesByCurrency[primary] ?? ukSuffixes);
        const free = pool.filter((candidate) => !used.has(candidate));
        suffix = free.length > 0 ? merchantRandom.pick(free) : `${merchantRandom.pick(ukSuffixes)} ${n + 1}`;
      }
      used.add(suffix);
      const live = businessLive && (businessIndex < demoBusinessCount || !merchantRandom.chance(0.06));
      const merchantSlug = slug(suffix);
      merchants.push({
        id,
        businessId: business.id,
        name: count === 1 ? short : `${short} ${suffix}`,
        live,
        grossSettlement: gross,
        currencies: [...currencies],
        merchantUrl: `${business.businessUrl}/${merchantSlug}`,
        supportUrl: merchantRandom.chance(0.8) ? `${business.businessUrl}/support` : null,
        createdAt: at((760 + merchantRandom.int(0, 1400)) * day),
      });
      // Merchants with a support page also answer email there (no draw of the generator: the world stays the same).
      const built = merchants[merchants.length - 1];
      if (built?.supportUrl) built.supportEmail = `support@${new URL(business.businessUrl).hostname}`;
      merchantSector.set(id, sector);
    }
  });
  if (merchants.length !== 120) throw new Error(`expected 120 merchants, built ${merchants.length}`);
  const merchantsOf = (businessId: string) => merchants.filter((m) => m.businessId === businessId);
  const firstMerchantOf = (businessId: string) => {
    const merchant = merchantsOf(businessId)[0];
    if (!merchant) throw new Error(`business ${businessId} has no merchant`);
    return merchant;
  };

  const demo: DemoIds = {
    ownerBusinessId: businessAt(0).id,
    soloBusinessId: businessAt(1).id,
    soloMerchantId: firstMerchantOf(businessAt(1).id).id,
    financeBusinessId: businessAt(2).id,
    developerBusinessId: businessAt(3).id,
    vtBusinessId: businessAt(4).id,
    vtMerchantId: firstMerchantOf(businessAt(4).id).id,
    partnerId: 'PRT0001',
    expiringBusinessId: businessAt(5).id,
    merchantWithoutPayments: merchantsOf(businessAt(0).id)[4]?.id ?? '',
  };

  // Configurations -------------------------------------------------------------------------------
  const configRandom = stream(randomSeed, 3);
  const configurations: World['configurations'] = [];
  for (const merchant of merchants) {
    const business = businesses.find((b) => b.id === merchant.businessId);
    const short = shortName(business?.name ?? merchant.name);
    let kinds: ('web' | 'phone' | 'link')[];
    if (merchant.id === demo.vtMerchantId) kinds = ['phone', 'web'];
    else if (merchant.id === demo.soloMerchantId) kinds = ['web'];
    else if (merchant.id === firstMerchantOf(demo.ownerBusinessId).id) kinds = ['web', 'phone', 'link'];
    else
      kinds = configRandom.weighted<('web' | 'phone' | 'link')[]>([
        [['web'], 50],
        [['web', 'phone'], 20],
        [['web', 'link'], 15],
        [['web', 'phone', 'link'], 15],
      ]);
    kinds.forEach((kind, n) => {
      let enabled = kind === 'phone' ? true : configRandom.chance(kind === 'web' ? 0.88 : 0.7);
      if (merchant.id === demo.vtMerchantId) enabled = n === 0;
      const tradeName = kind === 'web' ? merchant.name : kind === 'phone' ? `${short} Telephone Orders` : `${short} Pay by Link`;
      const description =
        kind === 'web'
          ? 'Hosted payment page for the web shop checkout'
          : kind === 'phone'
            ? 'Virtual terminal for orders taken by telephone and post'
            : 'Payment links sent to customers by email and text message';
      configurations.push({
        id: `CFG${pad(configurations.length + 1, 5)}`,
        merchantId: merchant.id,
        businessId: merchant.businessId,
        tradeName,
        description,
        switches: { virtualTerminalMenuEnabled: enabled },
        version: 1,
      });
    });
  }

  // Users and roles ------------------------------------------------------------------------------
  const userRandom = stream(randomSeed, 4);
  const users: World['users'] = [];
  const userRoles: World['userRoles'] = [];
  const emails = new Set<string>();
  const addUser = (email: string, givenName: string, familyName: string, internal: boolean, extra: Partial<World['users'][number]> = {}) => {
    if (emails.has(email)) throw new Error(`duplicate email ${email}`);
    emails.add(email);
    const id = `USR${pad(users.length + 1, 5)}`;
    users.push({
      id,
      email,
      givenName,
      familyName,
      passwordHash,
      failedSignIns: 0,
      lockoutEndDateUtc: null,
      passwordExpiresUtc: new Date(anchor + 180 * day),
      internal,
      version: 1,
      createdAt: at(userRandom.int(30, 900) * day + userRandom.int(0, 86_399) * 1000),
      ...extra,
    });
    return id;
  };
  const grantRoot = (userId: string, role: string) => userRoles.push({ userId, role, level: 'root', partnerId: null, businessId: null, merchantId: null });
  const grantPartner = (userId: string, role: string, partnerId: string) =>
    userRoles.push({ userId, role, level: 'partner', partnerId, businessId: null, merchantId: null });
  const grantBusiness = (userId: string, role: string, businessId: string) =>
    userRoles.push({ userId, role, level: 'business', partnerId: null, businessId, merchantId: null });
  const grantMerchant = (userId: string, role: string, businessId: string, merchantId: string) =>
    userRoles.push({ userId, role, level: 'merchant', partnerId: null, businessId, merchantId });

  const admin = addUser('admin@demo.test', 'Priya', 'Shah', true);
  grantRoot(admin, 'TechnicalAdmin');
  const service = addUser('service@demo.test', 'Callum', 'Reid', true);
  grantRoot(service, 'CustomerService');
  const readOnly = addUser('readonly@demo.test', 'Hannah', 'Price', true);
  grantRoot(readOnly, 'InternalReadOnly');
  const risk = addUser('risk@demo.test', 'Tomasz', 'Nowak', true);
  grantRoot(risk, 'RiskAnalyst');
  const owner = addUser('owner@demo.test', 'Olivia', 'Bennett', false);
  grantBusiness(owner, 'Owner', demo.ownerBusinessId);
  const solo = addUser('solo@demo.test', 'Samuel', 'Okafor', false);
  grantBusiness(solo, 'Owner', demo.soloBusinessId);
  const finance = addUser('finance@demo.test', 'Fiona', 'Campbell', false);
  grantBusiness(finance, 'Finance', demo.financeBusinessId);
  const developer = addUser('developer@demo.test', 'Rhys', 'Evans', false);
  grantBusiness(developer, 'ExternalDeveloper', demo.developerBusinessId);
  const vt = addUser('vt@demo.test', 'Grace', 'Whitfield', false);
  grantMerchant(vt, 'VirtualTerminal', demo.vtBusinessId, demo.vtMerchantId);
  const partner = addUser('partner@demo.test', 'James', 'Thornton', false);
  grantPartner(partner, 'Owner', demo.partnerId);
  const expiring = addUser('expiring@demo.test', 'Ellie', 'Walsh', false, { passwordExpiresUtc: new Date(anchor + 3 * day) });
  grantBusiness(expiring, 'Owner', demo.expiringBusinessId);

  const freshName = () => {
    for (;;) {
      const given = userRandom.pick(givenNames);
      const family = userRandom.pick(familyNames);
      if (!users.some((u) => u.givenName === given && u.familyName === family)) return [given, family] as const;
    }
  };
  const staffDomain = 'payments-provider.example';
  for (const role of ['CustomerService', 'Implementations', 'FinanceAdmin', 'OperationalSupervisor']) {
    const [given, family] = freshName();
    const id = addUser(`${ascii(given)}.${ascii(family)}@${staffDomain}`, given, family, true);
    grantRoot(id, role);
  }
  for (const partnerId of ['PRT0002', 'PRT0003']) {
    const [given, family] = freshName();
    const partnerName = partnerRows.find(([id]) => id === partnerId)?.[1] ?? partnerId;
    const id = addUser(`${ascii(given)}.${ascii(family)}@${slug(shortName(partnerName))}.example`, given, family, false);
    grantPartner(id, 'Owner', partnerId);
  }
  const businessUserTargets = [0, 0, 0, 2, 3, 4, 6, 7, 8, 9, 10, 12, 13, 14, 15, 16, 18, 20, 21, 24, 26, 29, 30, 30];
  for (const [n, businessIndex] of businessUserTargets.entries()) {
    const business = businessAt(businessIndex);
    const [given, family] = freshName();
    const extra: Partial<World['users'][number]> = {};
    if (n === 5) extra.lockoutEndDateUtc = new Date(anchor + day); // one locked account
    const id = addUser(`${ascii(given)}.${ascii(family)}@${slug(shortName(business.name))}.example`, given, family, false, extra);
    const role = userRandom.weighted([
      ['Owner', 30],
      ['Finance', 25],
      ['Sales', 15],
      ['ExternalDeveloper', 15],
      ['VirtualTerminal', 15],
    ] as const);
    const ownMerchants = merchantsOf(business.id);
    if (role !== 'Owner' && ownMerchants.length > 1 && userRandom.chance(0.35)) {
      const merchant = userRandom.pick(ownMerchants);
      grantMerchant(id, role, business.id, String(merchant.id));
    } else {
      grantBusiness(id, role, business.id);
      if (role === 'Finance' && userRandom.chance(0.4)) grantBusiness(id, 'Sales', business.id);
    }
  }
  {
    // One user working for two businesses, for the context selection panel.
    const [given, family] = freshName();
    const id = addUser(`${ascii(given)}.${ascii(family)}@bookkeeping-services.example`, given, family, false);
    grantBusiness(id, 'Finance', businessAt(6).id);
    grantBusiness(id, 'Finance', businessAt(10).id);
  }
  // Billing: the finance admin who runs the monthly invoices (after every random user, so ids stay put).
  grantRoot(addUser('billing@demo.test', 'Bianca', 'Osei', true), 'FinanceAdmin');

  // Notifications --------------------------------------------------------------------------------
  const content = (...blocks: ({ type: 'paragraph'; text: string } | { type: 'list'; items: string[] })[]) => JSON.stringify({ blocks });
  const paragraph = (text: string) => ({ type: 'paragraph' as const, text });
  type NotificationSpec = [string, string, 'draft' | 'readyForPublication' | 'published' | 'unpublished', 'allUsers' | 'internalUsers', number];
  const notificationSpecs: NotificationSpec[] = [
    [
      'Scheduled maintenance on Sunday 02:00–04:00 UTC',
      content(
        paragraph('The portal and the reporting services will be unavailable for up to two hours while we upgrade our database servers.'),
        paragraph('Payments are not affected.'),
      ),
      'published',
      'allUsers',
      118,
    ],
    [
      'Klarna Pay Later is now available',
      content(paragraph('You can now offer Klarna Pay Later on the hosted payment page.'), {
        type: 'list',
        items: ['Open your configuration', 'Choose Payment methods', 'Switch on Klarna Pay Later'],
      }),
      'published',
      'allUsers',
      96,
    ],
    [
      'Apple Pay domain verification reminder',
      content(
        paragraph('Apple requires the domain association file to be renewed every year. Check your hosted payment page domains before the end of the month.'),
      ),
      'published',
      'allUsers',
      74,
    ],
    [
      'Internal: updated refund escalation procedure',
      content(paragraph('Refunds above £5,000 now need approval from a second member of the customer service team.')),
      'published',
      'internalUsers',
      60,
    ],
    [
      'Security notice <script>alert(1)</script>',
      content(paragraph('Never share your password. <img src=x onerror=alert(1)> Our staff will never ask for it.'), paragraph('<script>alert(1)</script>')),
      'published',
      'allUsers',
      45,
    ],
    [
      'Settlement times over the bank holiday',
      content(paragraph('Settlements due on the bank holiday Monday will be paid on the following working day.')),
      'published',
      'allUsers',
      31,
    ],
    [
      'Strong customer authentication exemptions',
      content(paragraph('Low-value and trusted-beneficiary exemptions are now requested automatically where the issuer allows them.')),
      'published',
      'allUsers',
      18,
    ],
    [
      'Internal: risk rules release 4.2',
      content(paragraph('Velocity rules for card testing have been tightened; see the risk handbook for the new thresholds.')),
      'published',
      'internalUsers',
      9,
    ],
    ['New dashboard comparisons', content(paragraph('Compare any period with the same period one year earlier.')), 'published', 'allUsers', 2],
    ['Draft: card scheme fee changes from April', content(paragraph('Scheme fees for cross-border transactions change on 1 April.')), 'draft', 'allUsers', 0],
    [
      'Quarterly compliance training',
      content(paragraph('All staff must complete the anti-money-laundering module by the end of the quarter.')),
      'readyForPublication',
      'internalUsers',
      0,
    ],
    [
      'Withdrawn: incorrect payout date announcement',
      content(paragraph('This announcement contained a wrong date and has been withdrawn.')),
      'unpublished',
      'allUsers',
      130,
    ],
  ];
  const notifications: World['notifications'] = notificationSpecs.map(([title, text, status, viewRestriction, daysAgo], index) => {
    const published = status === 'published' || status === 'unpublished' ? at(daysAgo * day + (index + 1) * 3_600_000) : null;
    return {
      reference: `NTF${pad(index + 1, 5)}`,
      title,
      content: text,
      status,
      viewRestriction,
      publishedUtc: published,
      lastEditedUtc: published ?? at((index + 1) * 3_600_000),
      version: status === 'unpublished' ? 3 : 1,
    };
  });
  const reads: [string, number[]][] = [
    [admin, [1, 2, 4]],
    [service, [1, 4]],
    [owner, [1, 2]],
    [finance, [1, 2, 3, 6]],
    [partner, [1]],
  ];
  const notificationReads: World['notificationReads'] = reads.flatMap(([userId, numbers]) =>
    numbers.map((number) => ({ userId, reference: `NTF${pad(number, 5)}`, readUtc: at((10 - number) * day) })),
  );

  // Tickets --------------------------------------------------------------------------------------
  const ticketRandom = stream(randomSeed, 5);
  const subjects: Record<string, string[]> = {
    bug: [
      'Dashboard totals do not match the settlement report',
      'Export to Excel times out for a year of data',
      'Virtual terminal rejects a valid postcode',
      'Refund button missing for a captured payment',
      'Payment link email not received by the customer',
      'Logo stretched on the hosted payment page on mobile',
    ],
    dispute: [
      'Chargeback received for a delivered order',
      'Customer disputes a duplicate charge',
      'Deadline for dispute evidence',
      'Dispute reason: goods not as described',
    ],
    featureRequest: [
      'Schedule recurring reports',
      'Welsh language on the hosted payment page',
      'Filter transactions by card scheme',
      'Bulk refunds from the transactions overview',
    ],
    general: [
      'Change of registered business address',
      'Update the bank account for settlements',
      'Add a new trading name',
      'Question about the monthly invoice',
    ],
    informationRequest: [
      'When will Klarna be available for our account?',
      'Settlement timings over the bank holiday',
      'How do we enable Apple Pay on our website?',
      'Which test cards can we use?',
    ],
  };
  const descriptions = [
    'Could you please look into this for us? Details are below.',
    'This has happened several times this week and our customers have noticed.',
    'We would appreciate an update by the end of the week.',
    'Please let us know if you need any further information from our side.',
  ];
  const usersOfBusiness = (businessId: string) => [...new Set(userRoles.filter((r) => r.businessId === businessId).map((r) => r.userId))];
  const tickets: World['tickets'] = [];
  const ticketBusinessIndexes = [0, 0, 0, 0, 0, 0, 1, 2, 2, 3, 4, 5, ...Array.from({ length: 48 }, () => ticketRandom.int(0, businesses.length - 1))];
  ticketBusinessIndexes.forEach((businessIndex, n) => {
    const business = businessAt(businessIndex);
    const type = ticketRandom.weighted([
      ['bug', 25],
      ['dispute', 20],
      ['featureRequest', 15],
      ['general', 20],
      ['informationRequest', 20],
    ] as const);
    const status = ticketRandom.weighted([
      ['Open', 30],
      ['InProgress', 25],
      ['OnHold', 10],
      ['Closed', 35],
    ] as const);
    const priority = ticketRandom.weighted([
      ['Unknown', 10],
      ['Low', 30],
      ['Medium', 40],
      ['High', 20],
    ] as const);
    const ownMerchants = merchantsOf(business.id);
    const merchant = ticketRandom.chance(0.5) ? ticketRandom.pick(ownMerchants) : null;
    const authors = usersOfBusiness(business.id);
    const createdBy = businessIndex === 0 && n < 3 ? owner : authors.length > 0 ? ticketRandom.pick(authors) : service;
    const ageMs = ticketRandom.int(1, 400) * day + ticketRandom.int(0, 86_399) * 1000;
    const updatedMs = Math.max(0, ageMs - ticketRandom.int(0, Math.min(30, Math.floor(ageMs / day))) * day - ticketRandom.int(0, 3600) * 1000);
    const subject = n === 2 ? 'Invoice query <script>alert(1)</script><img src=x onerror=alert(1)>' : ticketRandom.pick(subjects[type] ?? ['Question']);
    tickets.push({
      id: `TCK${pad(n + 1, 5)}`,
      businessId: business.id,
      merchantId: merchant ? String(merchant.id) : null,
      createdBy,
      type,
      status,
      priority,
      subject,
      description: ticketRandom.pick(descriptions),
      createdUtc: at(ageMs),
      lastUpdatedUtc: at(updatedMs),
      version: 1,
    });
  });
  const commentTexts = [
    'Thank you, we are looking into this and will update you shortly.',
    'We have passed this to our settlements team.',
    'Could you send us the transaction reference, please?',
    'This is now resolved; please let us know if it happens again.',
    'Attached is the evidence the card scheme asked for.',
  ];
  const ticketComments: World['ticketComments'] = [];
  for (let n = 0; n < 30; n += 1) {
    const ticket = n < 4 ? tickets[n % 3] : ticketRandom.pick(tickets);
    if (!ticket) continue;
    const created = ticket.createdUtc instanceof Date ? ticket.createdUtc.getTime() : anchor;
    const updated = ticket.lastUpdatedUtc instanceof Date ? ticket.lastUpdatedUtc.getTime() : anchor;
    ticketComments.push({
      id: `TCC${pad(n + 1, 5)}`,
      ticketId: ticket.id,
      authorId: n % 2 === 0 ? service : ticket.createdBy,
      text: ticketRandom.pick(commentTexts),
      createdUtc: new Date(created + Math.floor((updated - created) * ticketRandom.next())),
    });
  }

  // Audit events ---------------------------------------------------------------------------------
  const ownerMerchant = firstMerchantOf(demo.ownerBusinessId).id;
  const auditSpecs: [string, string, string | null, string | null, number, Record<string, unknown>][] = [
    [owner, 'RefundSuccessful', demo.ownerBusinessId, ownerMerchant, 2, { amountMinor: 2599, currency: 'GBP' }],
    [owner, 'CaptureSuccessful', demo.ownerBusinessId, ownerMerchant, 3, { amountMinor: 12_000, currency: 'GBP' }],
    [owner, 'VoidFailed', demo.ownerBusinessId, ownerMerchant, 5, { reason: 'Payment already captured' }],
    [vt, 'VirtualTerminalOrderSuccessful', demo.vtBusinessId, demo.vtMerchantId, 1, { amountMinor: 4500, currency: 'GBP' }],
    [vt, 'VirtualTerminalOrderFailed', demo.vtBusinessId, demo.vtMerchantId, 1, { reason: 'Card declined' }],
    [service, 'RefundFailed', demo.financeBusinessId, firstMerchantOf(demo.financeBusinessId).id, 7, { reason: 'Refund exceeds the captured amount' }],
    [admin, 'UserDeletionSuccessful', demo.ownerBusinessId, null, 12, { deletedUser: 'former.employee@harbour-and-finch-homeware.example' }],
    [solo, 'CaptureFailed', demo.soloBusinessId, demo.soloMerchantId, 4, { reason: 'Authorisation expired' }],
  ];
  const auditEvents: World['auditEvents'] = auditSpecs.map(([userId, event, businessId, merchantId, daysAgo, metaData], n) => ({
    userId,
    event,
    dateTimeUtc: at(daysAgo * day + (n + 1) * 600_000),
    businessId,
    merchantId,
    metaData,
    recordedUtc: at(daysAgo * day + (n + 1) * 600_000 - 1000),
  }));

  // Lookups for the bulk generator ---------------------------------------------------------------
  const volumeRandom = stream(randomSeed, 6);
  const merchantLookup: MerchantLookup[] = [];
  for (const merchant of merchants) {
    if (merchant.id === demo.merchantWithoutPayments) continue;
    const sector = merchantSector.get(merchant.id);
    const configs = configurations.filter((c) => c.merchantId === merchant.id).map((c) => c.id);
    const currencies = merchant.currencies;
    const business = businesses.find((b) => b.id === merchant.businessId);
    const base = Math.max(100, Math.round((sector?.base ?? 3000) * (0.7 + 0.6 * volumeRandom.next())));
    // Small baskets come often, big ones rarely; quiet merchants and closed accounts sell less.
    let weight = Math.sqrt(4000 / base) * (0.4 + 1.6 * volumeRandom.next() ** 2);
    if (!merchant.live) weight *= 0.3;
    if (business && business.id === demo.ownerBusinessId) weight = Math.max(weight, 1);
    const items = sector?.items ?? ['Goods', 'Services', 'Gift card'];
    merchantLookup.push({
      idx: merchantLookup.length,
      merchant_id: merchant.id,
      business_id: merchant.businessId,
      partner_id: business?.partnerId ?? null,
      cur1: currencies[0] ?? 'GBP',
      cur2: currencies[1] ?? currencies[0] ?? 'GBP',
      cur3: currencies[2] ?? currencies[0] ?? 'GBP',
      ncur: currencies.length,
      cfg1: configs[0] ?? '',
      cfg2: configs[1] ?? configs[0] ?? '',
      cfg3: configs[2] ?? configs[0] ?? '',
      ncfg: configs.length,
      base,
      item1: items[0],
      item2: items[1],
      item3: items[2],
      weight,
    });
  }

  const customerRandom = stream(randomSeed, 7);
  const customers: Customer[] = [];
  const customerEmails = new Set<string>();
  const address = (given: string, family: string, middle: string | null, town: Town, organisation: string | null) => ({
    title: customerRandom.pick(titles),
    firstName: given,
    middleName: middle,
    lastName: family,
    phoneNumber1: `+44 7700 900${pad(customerRandom.int(0, 999), 3)}`,
    phoneNumber2: customerRandom.chance(0.15) ? `+44 20 7946 0${pad(customerRandom.int(0, 999), 3)}` : null,
    addressLine1: `${customerRandom.int(1, 180)} ${customerRandom.pick(streets)}`,
    addressLine2: customerRandom.chance(0.2) ? `Flat ${customerRandom.int(1, 30)}` : null,
    zipCode: town.postcode(customerRandom),
    city: town.city,
    countryIso3166Alpha2: town.country,
    organisation,
    department: organisation && customerRandom.chance(0.5) ? customerRandom.pick(['Accounts', 'Purchasing', 'Facilities']) : null,
  });
  for (let idx = 0; idx < 2500; idx += 1) {
    const given = customerRandom.pick(givenNames);
    const family = customerRandom.pick(familyNames);
    const middle = customerRandom.chance(0.2) ? customerRandom.pick(middleNames) : null;
    let email = `${ascii(given)}.${ascii(family)}@${customerRandom.pick(emailDomains)}`;
    for (let n = 2; customerEmails.has(email); n += 1) email = email.replace(/(\d*)@/, `${n}@`);
    customerEmails.add(email);
    const town = customerRandom.weighted(towns);
    const organisation = customerRandom.chance(0.1) ? `${family} & ${customerRandom.pick(familyNames)} LLP` : null;
    const billing = address(given, family, middle, town, organisation);
    const shipping = customerRandom.chance(0.8) ? billing : address(customerRandom.pick(givenNames), family, null, town, null);
    const birth = new Date(Date.UTC(1950 + customerRandom.int(0, 55), customerRandom.int(0, 11), customerRandom.int(1, 28)));
    customers.push({
      idx,
      email,
      order: withoutNulls({
        billingIdentity: { emailAddress: email, dateOfBirth: birth.toISOString().slice(0, 10) },
        billingAddress: billing,
        shippingAddress: shipping,
      }),
    });
  }

  return {
    partners,
    businesses,
    merchants,
    configurations,
    users,
    userRoles,
    notifications,
    notificationReads,
    tickets,
    ticketComments,
    auditEvents,
    demo,
    merchantLookup,
    customers,
  };
}
