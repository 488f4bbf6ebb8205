/**
 * The seed of a Supervisor instance: one `supervisord.conf` written fresh into the instance's
 * temp dir on every start, with fixed programs (small shell loops that print fixed lines, then
 * idle), fixed group names and fixed log file paths, so every start looks the same.
 *
 * The programs come in sets of three, one set per workflow that changes or reads one program: the
 * person's record, then the two that the working-tools check uses instead. No workflow touches
 * another's set, except "Restart All" and "Stop All", which come last and touch everything.
 */
import { join } from 'node:path'

/** The one account of the web interface (`[inet_http_server] username/password`): HTTP Basic. */
export const USER = { name: 'admin', password: 'Keep-them-running-4' } as const

/** One seeded program, as the web UI names it (`group:name`, or `name` when it is its own group). */
export interface SeedProgram {
  /** The `[program:x]` name. */
  name: string
  /** The `[group:g]` it belongs to; none: it is its own group (Supervisor's default). */
  group?: string
  /** `autostart=false`: stopped ("Not started") when Supervisor starts. */
  stopped?: boolean
  /** The lines it prints to stdout once it starts (its log), before it idles. */
  lines: string[]
}

/** The namespec the web UI shows and puts in its links: `group:name`, or `name`. */
export function namespec(p: SeedProgram): string {
  return p.group ? `${p.group}:${p.name}` : p.name
}

/** Running programs that printed fixed lines: the tail workflow's set. */
export const TAIL_SET = ['nightly-backup', 'disk-report', 'cert-check'] as const

/** Every seeded program, in the order of the config file (the page sorts them by group, name). */
export const PROGRAMS: SeedProgram[] = [
  { name: 'api', group: 'web', lines: ['api: listening on 127.0.0.1:8080'] },
  { name: 'frontend', group: 'web', lines: ['frontend: serving /srv/www'] },
  { name: 'websocket', group: 'web', lines: ['websocket: 0 clients'] },
  { name: 'report-builder', stopped: true, lines: ['report-builder: waiting for jobs'] },
  { name: 'search-indexer', stopped: true, lines: ['search-indexer: index opened'] },
  { name: 'backup-agent', stopped: true, lines: ['backup-agent: connected to vault'] },
  { name: 'queue-worker', lines: ['queue-worker: polling queue default'] },
  { name: 'cache-warmer', lines: ['cache-warmer: 12 urls to warm'] },
  { name: 'metrics-exporter', lines: ['metrics-exporter: exporting on :9100'] },
  {
    name: 'nightly-backup',
    lines: ['backup started: 3 volumes', 'backup finished: 1482 files copied, 0 errors'],
  },
  {
    name: 'disk-report',
    lines: ['disk report: /srv at 61 percent', 'disk report: /var at 17 percent'],
  },
  {
    name: 'cert-check',
    lines: ['cert check: shop.example.com expires in 23 days', 'cert check: 1 warning'],
  },
  { name: 'importer', group: 'batch', lines: ['importer: 120 rows imported from orders.csv'] },
  { name: 'exporter', group: 'batch', lines: ['exporter: 45 rows exported to ledger.csv'] },
  { name: 'mailer', group: 'batch', lines: ['mailer: 8 mails queued for delivery'] },
]

/** The seeded program named `spec` (`group:name` or `name`); throws when there is none. */
export function seeded(spec: string): SeedProgram {
  const p = PROGRAMS.find((x) => namespec(x) === spec)
  if (!p) throw new Error(`no seeded program ${spec}`)
  return p
}

/** Every program's namespec, as the page lists them. */
export const NAMESPECS = PROGRAMS.map(namespec)

/** Where a program's stdout log lives in the instance dir (fixed, not Supervisor's AUTO name). */
export function logPath(dir: string, p: SeedProgram): string {
  return join(dir, 'logs', `${namespec(p).replace(':', '-')}.log`)
}

/**
 * A program's command: print its lines, then idle while the instance's `run/` dir exists, so a
 * program that outlives Supervisor (it puts each child in a process group of its own) ends within
 * a second of the dir's removal. No `%` anywhere: Supervisor expands `%(...)s` in its values.
 */
function command(dir: string, p: SeedProgram): string {
  const echoes = p.lines.map((line) => `echo "${line}"; `).join('')
  return `/bin/sh -c '${echoes}while [ -d ${join(dir, 'run')} ]; do sleep 1; done'`
}

/**
 * The whole `supervisord.conf`: the web UI on 127.0.0.1:`port` behind Basic auth, a unix socket,
 * pidfile and logs in `dir`, the XML-RPC interface, the groups and the programs. Stops signal the
 * program's whole process group (the shell and its `sleep`), so a stop is immediate.
 */
export function supervisordConf(dir: string, port: number): string {
  const groups = new Map<string, string[]>()
  for (const p of PROGRAMS)
    if (p.group) groups.set(p.group, [...(groups.get(p.group) ?? []), p.name])
  const sections = [
    '[unix_http_server]',
    `file=${join(dir, 'supervisor.sock')}`,
    'chmod=0700',
    '',
    '[inet_http_server]',
    `port=127.0.0.1:${port}`,
    `username=${USER.name}`,
    `password=${USER.password}`,
    '',
    '[supervisord]',
    `logfile=${join(dir, 'supervisord.log')}`,
    `pidfile=${join(dir, 'supervisord.pid')}`,
    `childlogdir=${join(dir, 'logs')}`,
    'nodaemon=true',
    'loglevel=info',
    'identifier=sitecall',
    '',
    '[rpcinterface:supervisor]',
    'supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface',
    '',
    '[supervisorctl]',
    `serverurl=unix://${join(dir, 'supervisor.sock')}`,
    '',
  ]
  for (const [group, names] of groups)
    sections.push(`[group:${group}]`, `programs=${names.join(',')}`, '')
  for (const p of PROGRAMS)
    sections.push(
      `[program:${p.name}]`,
      `command=${command(dir, p)}`,
      `autostart=${p.stopped ? 'false' : 'true'}`,
      'autorestart=false',
      'startsecs=1',
      'stopasgroup=true',
      'killasgroup=true',
      'stopwaitsecs=5',
      'redirect_stderr=true',
      `stdout_logfile=${logPath(dir, p)}`,
      'stdout_logfile_backups=0',
      '',
    )
  return sections.join('\n')
}
