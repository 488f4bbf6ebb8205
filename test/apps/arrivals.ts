import { pathToFileURL } from 'node:url'

/**
 * When each app of the real-app corpus arrived and how Sitecall did on it then, before any change
 * made for it (issue 24 B): the honest measure of generalisation. Apps come in waves; an app is
 * used to fit the target ranker (`fitTargetRanker.ts`) and to tune rules only once its arrival
 * figures are written here. `test/apps/ARRIVALS.md` is the same table for people.
 */

/** One path's figures on arrival: workflows, target right, working tools (null: not run live). */
export interface ArrivalFigures {
  n: number
  target: number
  working: number | null
}

export interface Arrival {
  app: string
  /** 0: the first corpus (issue 9); 1 and later: the waves of issue 24. */
  wave: number
  /** The day it was measured, `YYYY-MM-DD`; null while it waits to be measured. */
  measured: string | null
  /** The commit the measure ran on. */
  commit: string | null
  recording: ArrivalFigures | null
  har: ArrivalFigures | null
}

export const ARRIVALS: Arrival[] = [
  // Wave 0: the first corpus; its arrival figures are in each app's NOTES.md ("What the compiler
  // got wrong"), measured before issue 9's fixes. They are used for fitting.
  ...[
    'dokuwiki',
    'jupyter',
    'mediawiki',
    'nodered',
    'redmine',
    'tiddlywiki',
    'verdaccio',
    'wordpress',
  ].map((app): Arrival => ({
    app,
    wave: 0,
    measured: '2026-11-25',
    commit: null,
    recording: null,
    har: null,
  })),
  {
    app: 'deluge',
    wave: 1,
    measured: '2026-11-28',
    commit: '0980b63',
    recording: { n: 9, target: 0, working: 1 },
    har: { n: 9, target: 0, working: 3 },
  },
  {
    app: 'fossil',
    wave: 1,
    measured: '2026-11-28',
    commit: '0980b63',
    recording: { n: 10, target: 5, working: 2 },
    har: { n: 10, target: 5, working: 1 },
  },
  {
    app: 'haproxy',
    wave: 1,
    measured: '2026-11-28',
    commit: '0980b63',
    recording: { n: 8, target: 5, working: 1 },
    har: { n: 8, target: 5, working: 5 },
  },
  {
    app: 'syncthing',
    wave: 1,
    measured: '2026-11-28',
    commit: '0980b63',
    recording: { n: 10, target: 7, working: 0 },
    har: { n: 10, target: 7, working: 0 },
  },
  // Wave 2: measured on arrival at 3706759, after the mechanisms wave 1 taught.
  ...(
    [
      ['radicale', 8, [3, 0], [2, 0]],
      ['shaarli', 11, [10, 2], [10, 2]],
      ['monit', 8, [8, 3], [8, 3]],
      ['nzbget', 11, [7, 1], [6, 1]],
      ['maildev', 9, [8, 9], [8, 8]],
      ['postgraphile', 8, [8, 0], [8, 4]],
    ] as const
  ).map(([app, n, [rt, rw], [ht, hw]]): Arrival => ({
    app,
    wave: 2,
    measured: '2026-11-29',
    commit: '3706759',
    recording: { n, target: rt, working: rw },
    har: { n, target: ht, working: hw },
  })),
  // Wave 3: measured on arrival at fda68bf, after the mechanisms waves 1 and 2 taught (raw output:
  // arrivals/wave3-fda68bf.txt).
  ...(
    [
      ['znc', 9, [8, 5], [9, 5]],
      ['prometheus', 7, [7, 2], [5, 1]],
      ['icecast', 9, [7, 5], [4, 4]],
      ['gerbera', 9, [2, 0], [0, 0]],
    ] as const
  ).map(([app, n, [rt, rw], [ht, hw]]): Arrival => ({
    app,
    wave: 3,
    measured: '2026-11-29',
    commit: 'fda68bf',
    recording: { n, target: rt, working: rw },
    har: { n, target: ht, working: hw },
  })),
  // Wave 4: measured on arrival at 1bbb143, after the mechanisms waves 1 to 3 taught (raw output:
  // arrivals/wave4-1bbb143.txt).
  ...(
    [
      ['supervisor', 8, [2, 2], [2, 2]],
      ['rspamd', 8, [4, 0], [4, 1]],
      ['rabbitmq', 9, [9, 7], [8, 7]],
    ] as const
  ).map(([app, n, [rt, rw], [ht, hw]]): Arrival => ({
    app,
    wave: 4,
    measured: '2026-11-29',
    commit: '1bbb143',
    recording: { n, target: rt, working: rw },
    har: { n, target: ht, working: hw },
  })),
  // Wave 5: measured on arrival at 20e25b5, after wave 4's mechanisms (raw output:
  // arrivals/wave5-20e25b5.txt).
  ...(
    [
      ['tomcat', 10, [7, 6], [9, 8]],
      ['nagios', 8, [8, 2], [7, 5]],
    ] as const
  ).map(([app, n, [rt, rw], [ht, hw]]): Arrival => ({
    app,
    wave: 5,
    measured: '2026-11-29',
    commit: '20e25b5',
    recording: { n, target: rt, working: rw },
    har: { n, target: ht, working: hw },
  })),
  // Wave 6: measured on arrival at 6e8a7b8, after wave 5's mechanisms (raw output:
  // arrivals/wave6-6e8a7b8.txt).
  ...(
    [
      ['rediscommander', 9, [7, 0], [5, 0]],
      ['adminer', 9, [9, 1], [8, 1]],
    ] as const
  ).map(([app, n, [rt, rw], [ht, hw]]): Arrival => ({
    app,
    wave: 6,
    measured: '2026-11-29',
    commit: '6e8a7b8',
    recording: { n, target: rt, working: rw },
    har: { n, target: ht, working: hw },
  })),
  // Wave 7: measured on arrival at 7fafea6, after wave 6's mechanisms and the per-form token
  // (raw output: arrivals/wave7-7fafea6.txt).
  ...(
    [
      ['roundcube', 9, [7, 2], [6, 1]],
      ['phpmyadmin', 9, [1, 0], [1, 0]],
      ['postfixadmin', 10, [9, 6], [9, 5]],
    ] as const
  ).map(([app, n, [rt, rw], [ht, hw]]): Arrival => ({
    app,
    wave: 7,
    measured: '2026-11-29',
    commit: '7fafea6',
    recording: { n, target: rt, working: rw },
    har: { n, target: ht, working: hw },
  })),
  // Wave 8: measured on arrival at a3670b0, after wave 7's mechanisms (raw output:
  // arrivals/wave8-a3670b0.txt; CUPS's first run, before its helper fixed its own keys).
  ...(
    [
      ['cups', 9, [8, 2], [7, 4]],
      ['ttrss', 10, [8, 4], [7, 3]],
      ['phpldapadmin', 9, [8, 3], [9, 3]],
    ] as const
  ).map(([app, n, [rt, rw], [ht, hw]]): Arrival => ({
    app,
    wave: 8,
    measured: '2026-11-29',
    commit: 'a3670b0',
    recording: { n, target: rt, working: rw },
    har: { n, target: ht, working: hw },
  })),
  // Wave 9: measured on arrival at af06b79, after wave 8's mechanisms (raw output:
  // arrivals/wave9-af06b79.txt; the first runs, before each helper fixed a check of their own).
  ...(
    [
      ['ikiwiki', 8, [5, 1], [6, 4]],
      ['zabbix', 8, [7, 3], [5, 2]],
    ] as const
  ).map(([app, n, [rt, rw], [ht, hw]]): Arrival => ({
    app,
    wave: 9,
    measured: '2026-11-29',
    commit: 'af06b79',
    recording: { n, target: rt, working: rw },
    har: { n, target: ht, working: hw },
  })),
  // Wave 10: measured on arrival at 52af439, after wave 9's mechanisms (raw output:
  // arrivals/wave10-52af439-cacti.txt and arrivals/wave10-52af439-graphite.txt).
  ...(
    [
      ['cacti', 8, [8, 5], [8, 5]],
      ['graphite', 8, [4, 2], [4, 2]],
    ] as const
  ).map(([app, n, [rt, rw], [ht, hw]]): Arrival => ({
    app,
    wave: 10,
    measured: '2026-11-30',
    commit: '52af439',
    recording: { n, target: rt, working: rw },
    har: { n, target: ht, working: hw },
  })),
  // Wave 11: measured on arrival at 727db50, after wave 10 (raw output:
  // arrivals/wave11-727db50-davical.txt and arrivals/wave11-727db50-lam.txt; DAViCal's figures are
  // its first run, before its helper took a password out of a key).
  ...(
    [
      ['davical', 8, [7, 1], [7, 1]],
      ['lam', 8, [6, 0], [6, 0]],
    ] as const
  ).map(([app, n, [rt, rw], [ht, hw]]): Arrival => ({
    app,
    wave: 11,
    measured: '2026-11-30',
    commit: '727db50',
    recording: { n, target: rt, working: rw },
    har: { n, target: ht, working: hw },
  })),
  // Wave 12: measured on arrival at 3717762, after wave 11 (raw output:
  // arrivals/wave12-3717762-rt.txt and arrivals/wave12-3717762-ejabberd.txt).
  ...(
    [
      ['rt', 8, [6, 2], [6, 2]],
      ['ejabberd', 8, [6, 0], [7, 0]],
    ] as const
  ).map(([app, n, [rt, rw], [ht, hw]]): Arrival => ({
    app,
    wave: 12,
    measured: '2026-11-30',
    commit: '3717762',
    recording: { n, target: rt, working: rw },
    har: { n, target: ht, working: hw },
  })),
  // Wave 13: measured on arrival at c85c96c, after wave 12 (raw output:
  // arrivals/wave13-c85c96c-hledgerweb.txt and arrivals/wave13-c85c96c-calibre.txt; the first
  // runs, before hledger-web's helper added typed accounts and a date its add keys lacked and
  // calibre's let its write targets take any library segment).
  ...(
    [
      ['hledgerweb', 8, [7, 4], [7, 4]],
      ['calibre', 8, [4, 2], [4, 4]],
    ] as const
  ).map(([app, n, [rt, rw], [ht, hw]]): Arrival => ({
    app,
    wave: 13,
    measured: '2026-11-30',
    commit: 'c85c96c',
    recording: { n, target: rt, working: rw },
    har: { n, target: ht, working: hw },
  })),
  // Wave 14: measured on arrival at e70d513, after wave 13 (raw output:
  // arrivals/wave14-e70d513-icingaweb2.txt and arrivals/wave14-e70d513-mailman3web.txt; the first
  // runs, before Mailman's helper ticked "Pre Verified" in subscribe_member's person and gave
  // create_list's key the domain the person picked).
  ...(
    [
      ['icingaweb2', 8, [6, 5], [7, 6]],
      ['mailman3web', 8, [8, 2], [8, 3]],
    ] as const
  ).map(([app, n, [rt, rw], [ht, hw]]): Arrival => ({
    app,
    wave: 14,
    measured: '2026-11-30',
    commit: 'e70d513',
    recording: { n, target: rt, working: rw },
    har: { n, target: ht, working: hw },
  })),
  // Wave 15: measured on arrival at 9cab30b, after wave 14 (raw output:
  // arrivals/wave15-9cab30b-mlmmj.txt and arrivals/wave15-9cab30b-privoxy.txt; one run each).
  ...(
    [
      ['mlmmj', 8, [8, 6], [8, 6]],
      ['privoxy', 8, [2, 1], [2, 1]],
    ] as const
  ).map(([app, n, [rt, rw], [ht, hw]]): Arrival => ({
    app,
    wave: 15,
    measured: '2026-12-01',
    commit: '9cab30b',
    recording: { n, target: rt, working: rw },
    har: { n, target: ht, working: hw },
  })),
  // Wave 16: measured on arrival at dd117d9, after wave 15 (raw output:
  // arrivals/wave16-dd117d9-gitit.txt and arrivals/wave16-dd117d9-tryton.txt; one run each, the
  // Tryton rerun after a fix to its own key is beside it and not counted).
  ...(
    [
      ['gitit', 8, [7, 2], [6, 2]],
      ['tryton', 8, [7, 0], [7, 0]],
    ] as const
  ).map(([app, n, [rt, rw], [ht, hw]]): Arrival => ({
    app,
    wave: 16,
    measured: '2026-12-01',
    commit: 'dd117d9',
    recording: { n, target: rt, working: rw },
    har: { n, target: ht, working: hw },
  })),
  // Wave 17: measured on arrival at 6bd508f, after wave 16 (raw output:
  // arrivals/wave17-6bd508f-fedwiki.txt and arrivals/wave17-6bd508f-xymon.txt). Federated Wiki
  // counts its rerun (`-rerun.txt`, same compiler): the first run's one working tool passed a
  // search check too weak to tell the sitemap from the search index, so 1/8 was not a working
  // tool. Xymon's rerun after a fix to its own key moved no figure.
  ...(
    [
      ['fedwiki', 8, [6, 0], [6, 0]],
      ['xymon', 8, [8, 2], [8, 2]],
    ] as const
  ).map(([app, n, [rt, rw], [ht, hw]]): Arrival => ({
    app,
    wave: 17,
    measured: '2026-12-01',
    commit: '6bd508f',
    recording: { n, target: rt, working: rw },
    har: { n, target: ht, working: hw },
  })),
]

/** Apps whose arrival was measured: the only ones rules and the ranker may learn from. */
export function arrivedApps(): string[] {
  return ARRIVALS.filter((a) => a.measured !== null).map((a) => a.app)
}

/**
 * The arrivals as a Markdown table: one row per measured app (wave, date, commit, target and
 * working on both paths, `right/of`), then one total row per wave. Apps without figures (wave 0:
 * in their NOTES.md) are listed by name under the table.
 */
export function formatArrivals(arrivals: Arrival[] = ARRIVALS): string {
  const cell = (f: ArrivalFigures | null, key: 'target' | 'working') =>
    f === null || f[key] === null ? '—' : `${f[key]}/${f.n}`
  const lines = [
    '| app | wave | measured | commit | target (recording) | working (recording) | target (HAR) | working (HAR) |',
    '|---|---|---|---|---|---|---|---|',
  ]
  const figured = arrivals.filter((a) => a.recording || a.har)
  for (const a of figured)
    lines.push(
      `| ${a.app} | ${a.wave} | ${a.measured ?? 'not yet'} | ${a.commit ?? '—'} | ${cell(a.recording, 'target')} | ${cell(a.recording, 'working')} | ${cell(a.har, 'target')} | ${cell(a.har, 'working')} |`,
    )
  for (const wave of [...new Set(figured.map((a) => a.wave))]) {
    const of = figured.filter((a) => a.wave === wave)
    const sum = (path: 'recording' | 'har', key: 'target' | 'working') => {
      const rows = of.map((a) => a[path]).filter((f): f is ArrivalFigures => f !== null)
      const n = rows.reduce((s, f) => s + f.n, 0)
      const right = rows.reduce((s, f) => s + (f[key] ?? 0), 0)
      return n ? `**${right}/${n} (${Math.round((100 * right) / n)}%)**` : '—'
    }
    lines.push(
      `| **wave ${wave}** | | | | ${sum('recording', 'target')} | ${sum('recording', 'working')} | ${sum('har', 'target')} | ${sum('har', 'working')} |`,
    )
  }
  const unfigured = arrivals.filter((a) => !a.recording && !a.har)
  if (unfigured.length)
    lines.push(
      '',
      `Without figures here: ${unfigured.map((a) => `${a.app} (wave ${a.wave}${a.measured ? '' : ', not measured yet'})`).join(', ')}.`,
    )
  return lines.join('\n')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(formatArrivals())
