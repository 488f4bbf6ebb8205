/**
 * Rspamd's deterministic seed: the controller passwords, the multimap maps with fixed lines, the
 * local symbols with fixed scores, the messages scanned at start (so History has rows with fixed
 * Message-IDs) and the two messages learned at start (so Status shows learns). Every start writes
 * the same files and sends the same messages.
 */

/**
 * The person. Rspamd's controller knows no user names, only passwords: `enable_password` opens
 * everything (reads and writes), `password` only the reads. The person signs in with the first.
 * The name is what a saved login of the site calls them; nothing sends it.
 */
export const USER = { name: 'admin', password: 'Spam-Wrangler-42' }

/** The read-only password (`password` of the controller worker); no workflow uses it. */
const VIEWER_PASSWORD = 'Viewer-Only-7'

/** One multimap map: its file under `maps/`, the symbol it raises, its lines. */
export interface SeedMap {
  file: string
  symbol: string
  lines: string[]
}

/**
 * The maps, in the order the controller lists them. Their URIs are relative (`file://./maps/…`,
 * read from the instance's dir) because the controller's map id is a hash of the URI: relative
 * URIs keep the ids the same on every start, whatever the temp dir is called.
 */
export const MAPS: SeedMap[] = [
  {
    file: 'blocked_domains.map',
    symbol: 'BLOCKED_SENDER',
    lines: ['spammy.example', 'casino-deals.test', 'cheap-pills.example'],
  },
  {
    file: 'allowed_senders.map',
    symbol: 'ALLOWED_SENDER',
    lines: ['boss@corp.example', 'payroll@corp.example'],
  },
  {
    file: 'bad_subject_words.map',
    symbol: 'BAD_SUBJECT_WORD',
    lines: ['/lottery/i', '/free money/i', '/act now/i'],
  },
]

/** The controller's id of a seeded map (`Map` header of getmap/savemap): fixed, see {@link MAPS}. */
export const MAP_IDS: Record<string, number> = {
  'blocked_domains.map': 212106489,
  'allowed_senders.map': 570444090,
  'bad_subject_words.map': 4133254772,
}

/** The multimap symbols with their seeded scores, as the Symbols tab lists them (group `multimap`). */
export const SYMBOLS: Array<{ name: string; score: number; description: string }> = [
  { name: 'BLOCKED_SENDER', score: 7, description: 'Sender domain is on the blocked domains map' },
  { name: 'ALLOWED_SENDER', score: -4, description: 'Sender is on the allowed senders map' },
  { name: 'BAD_SUBJECT_WORD', score: 3.5, description: 'Subject holds a bad word of the map' },
]

/** The action thresholds (`actions` section). */
const ACTIONS = { reject: 15, add_header: 6, greylist: 4 }

/** Builds a small raw message with a fixed Message-ID (Rspamd's history and learn cache key). */
export function message(m: {
  from: string
  to?: string
  subject: string
  id: string
  body: string
}): string {
  return [
    `From: ${m.from}`,
    `To: ${m.to ?? 'alice@corp.example'}`,
    `Subject: ${m.subject}`,
    `Message-ID: <${m.id}>`,
    'Date: Mon, 02 Mar 2026 10:00:00 +0000',
    '',
    m.body,
    '',
  ].join('\n')
}

/** Messages scanned at start (POST /checkv2), in this order: History lists them newest first. */
export const SCANNED: Array<{ id: string; ip: string; text: string }> = [
  {
    id: 'weekly-report-0101@corp.example',
    ip: '192.0.2.10',
    text: message({
      from: 'Bob Builder <bob@corp.example>',
      subject: 'Weekly report for week 9',
      id: 'weekly-report-0101@corp.example',
      body: 'Hi Alice, attached is the weekly report with the numbers for the northern region and the open tickets list.',
    }),
  },
  {
    id: 'lottery-0202@spammy.example',
    ip: '198.51.100.23',
    text: message({
      from: 'Lucky Winner <promo@spammy.example>',
      subject: 'You won the lottery',
      id: 'lottery-0202@spammy.example',
      body: 'Claim your free money now! Send your bank details to collect the lottery prize of one million dollars today.',
    }),
  },
  {
    id: 'invoice-2041@billing.example',
    ip: '203.0.113.41',
    text: message({
      from: 'Billing <billing@billing.example>',
      subject: 'Invoice 2041 for March',
      id: 'invoice-2041@billing.example',
      body: 'Dear customer, your invoice 2041 for the March hosting plan is ready. The amount will be charged next week.',
    }),
  },
  {
    id: 'pills-0303@cheap-pills.example',
    ip: '198.51.100.77',
    text: message({
      from: 'Pharmacy <deals@cheap-pills.example>',
      subject: 'Act now: cheap pills',
      id: 'pills-0303@cheap-pills.example',
      body: 'Best prices on all pills, no prescription needed, worldwide shipping in discreet packages, order today.',
    }),
  },
  {
    id: 'payslip-0404@corp.example',
    ip: '192.0.2.11',
    text: message({
      from: 'Payroll <payroll@corp.example>',
      subject: 'Your payslip for February',
      id: 'payslip-0404@corp.example',
      body: 'Hello Alice, your payslip for February is available in the staff portal. Contact payroll with any questions.',
    }),
  },
]

/** Messages learned at start, so the Status tab shows one spam and one ham learn. */
export const LEARNED: Array<{ as: 'spam' | 'ham'; text: string }> = [
  {
    as: 'spam',
    text: message({
      from: 'Crypto King <king@casino-deals.test>',
      subject: 'Double your bitcoin',
      id: 'seed-spam-0001@casino-deals.test',
      body: 'Send one bitcoin to our wallet and we send two back within the hour, guaranteed returns for every investor.',
    }),
  },
  {
    as: 'ham',
    text: message({
      from: 'Carol <carol@corp.example>',
      subject: 'Lunch on Friday',
      id: 'seed-ham-0001@corp.example',
      body: 'Shall we meet for lunch on Friday at the Italian place near the office? The team booked a table for six.',
    }),
  },
]

/** The Public Suffix List subset the instance uses (the full list takes ~40 s to compile). */
export const TLDS = [
  'com',
  'org',
  'net',
  'io',
  'info',
  'biz',
  'de',
  'ru',
  'uk',
  'co.uk',
  'example',
  'test',
  'invalid',
  'local',
]

/** The whole `rspamd.conf` of an instance listening on `port`; every path is under `dir`. */
export function rspamdConfig(dir: string, port: number): string {
  const rules = MAPS.map((m) => {
    const how =
      m.symbol === 'BLOCKED_SENDER'
        ? 'type = "from"; filter = "email:domain";'
        : m.symbol === 'ALLOWED_SENDER'
          ? 'type = "from";'
          : 'type = "header"; header = "Subject"; regexp = true;'
    const symbol = SYMBOLS.find((s) => s.name === m.symbol)!
    // The rule's score and description: the symbol is then listed once, in group "multimap".
    return `  ${m.symbol} { ${how} map = "file://./maps/${m.file}"; score = ${symbol.score.toFixed(2)}; description = "${symbol.description}"; }`
  }).join('\n')
  return `# Sitecall corpus instance: everything below lives in ${dir}; nothing reaches the network.
lua = "$RULESDIR/rspamd.lua"
options {
  pidfile = "${dir}/run/rspamd.pid";
  # Relative, so it is not listed among the maps (its id would hold the temp dir's name).
  dynamic_conf = "./db/rspamd_dynamic";
  history_file = "${dir}/db/rspamd.history";
  history_rows = 200;
  stats_file = "${dir}/db/stats.ucl";
  control_socket = "${dir}/run/rspamd.sock mode=0600";
  hs_cache_dir = "${dir}/db/";
  cache_file = "${dir}/db/symbols.cache";
  tempdir = "${dir}/run";
  url_tld = "${dir}/tld.dat";
  disable_hyperscan = true;
  explicit_modules = [];
  task_timeout = 8s;
  # No resolver: a closed port answers at once, so no rule waits on DNS.
  dns { nameserver = ["127.0.0.1:1"]; timeout = 0.1s; retransmits = 1; }
  local_addrs = [127.0.0.0/8];
}
logging { type = "file"; filename = "${dir}/log/rspamd.log"; level = "notice"; }
# Only the multimap plugin: every other plugin wants Redis, DNS or the internet.
modules { path = "\${PLUGINSDIR}/multimap.lua"; }
actions { reject = ${ACTIONS.reject}; add_header = ${ACTIONS.add_header}; greylist = ${ACTIONS.greylist}; }
multimap {
${rules}
}
classifier "bayes" {
  tokenizer { name = "osb"; }
  backend = "sqlite3";
  min_tokens = 11;
  min_learns = 1;
  cache { path = "${dir}/db/learn_cache.sqlite"; }
  statfile { symbol = "BAYES_HAM"; spam = false; path = "${dir}/db/bayes_ham.sqlite"; }
  statfile { symbol = "BAYES_SPAM"; spam = true; path = "${dir}/db/bayes_spam.sqlite"; }
}
worker "controller" {
  bind_socket = "127.0.0.1:${port}";
  count = 1;
  password = "${VIEWER_PASSWORD}";
  enable_password = "${USER.password}";
  static_dir = "\${WWWDIR}";
}
`
}
