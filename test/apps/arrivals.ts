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
  /** 0: the first corpus (issue 9); 1, 2, 3: the waves of issue 24. */
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
]

/** Apps whose arrival was measured: the only ones rules and the ranker may learn from. */
export function arrivedApps(): string[] {
  return ARRIVALS.filter((a) => a.measured !== null).map((a) => a.app)
}
