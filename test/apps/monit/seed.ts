/**
 * The seed of a Monit instance: one control file (`monitrc`) and the harmless things its checks
 * watch, all written fresh into the instance's temp dir on every start. Every service has a fixed
 * name and type; the processes are shell loops started and stopped by a script of the instance,
 * the programs print a fixed line and exit with a fixed status, so every start looks the same.
 *
 * The services come in groups of three, one group per workflow that changes something, so no
 * workflow touches what another one reads or changes: the person's record, then the two that the
 * working-tools check uses instead.
 */
import { join } from 'node:path'

/** The one account of the web interface (`allow <user>:<password>`): HTTP Basic, nothing else. */
export const USER = { name: 'admin', password: 'Watch-the-daemons-5' } as const

/**
 * The name of the `check system` service: Monit also shows it as the host it runs on ("Monit is
 * running on apphost") and in every page title, instead of the machine's own hostname.
 */
export const HOST = 'apphost'

/**
 * A fixed Monit id (the idfile is written before the start): the runtime page and the XML status
 * show it, and Monit would otherwise make a new random one on every start.
 */
export const MONIT_ID = '5e1f0c7a9b3d4e2f8a6c1b0d9e8f7a6b'

/**
 * How often Monit checks everything, in seconds. It is also the page's own refresh (Monit writes
 * `<meta http-equiv=refresh content=<this>>` into every page), so it is long enough that no page
 * reloads by itself while a person is on it; actions from the page wake Monit up at once anyway,
 * and the start forces the second cycle (see `server.ts`).
 */
const POLL_SECONDS = 30

/** The kinds of service the seed has, as Monit's pages name their tables. */
type ServiceKind = 'System' | 'Process' | 'File' | 'Directory' | 'Program'

/** One seeded service. */
export interface SeedService {
  name: string
  kind: ServiceKind
  /**
   * `onreboot nostart`: Monit neither starts nor monitors it when it starts, so it shows
   * "Not monitored" (a process is then not running either).
   */
  nostart?: boolean
  /** A process: running from the start (started by `server.ts` just before Monit). */
  running?: boolean
  /** A file: the file's name under `files/` and its content. */
  file?: { name: string; content: string }
  /** A directory: its name under `dirs/`. */
  dir?: string
  /** A program: the line it prints and its exit status. */
  program?: { output: string; exit: number }
}

/** Processes that run from the start: the stop workflow's group. */
const STOP_GROUP = ['queue-worker', 'mail-relay', 'thumbnailer'] as const
/** Processes that run from the start: the restart workflow's group. */
const RESTART_GROUP = ['api-gateway', 'cache-warmer', 'metrics-exporter'] as const
/** Processes that are stopped and not monitored at start (`onreboot nostart`): start's group. */
const START_GROUP = ['report-builder', 'search-indexer', 'backup-agent'] as const
/** Directories not monitored at start (`onreboot nostart`): the monitor workflow's group. */
const MONITOR_GROUP = ['upload-spool', 'mail-queue', 'backup-archive'] as const
/** Programs with a fixed output and exit status: the status page read's group. */
export const PROGRAM_GROUP = ['nightly-backup', 'disk-usage', 'cert-expiry'] as const

/** Every seeded service, in the order of the control file (Monit lists them in this order). */
export const SERVICES: SeedService[] = [
  { name: HOST, kind: 'System' },
  ...STOP_GROUP.map((name) => ({ name, kind: 'Process' as const, running: true })),
  ...RESTART_GROUP.map((name) => ({ name, kind: 'Process' as const, running: true })),
  ...START_GROUP.map((name) => ({ name, kind: 'Process' as const, nostart: true })),
  { name: 'app-config', kind: 'File', file: { name: 'app.conf', content: 'workers = 4\n' } },
  {
    name: 'tls-cert',
    kind: 'File',
    file: { name: 'server.pem', content: '-----BEGIN CERTIFICATE-----\nseed\n' },
  },
  {
    name: 'access-log',
    kind: 'File',
    file: { name: 'access.log', content: '127.0.0.1 - - "GET / HTTP/1.1" 200\n' },
  },
  ...MONITOR_GROUP.map((name) => ({ name, kind: 'Directory' as const, dir: name, nostart: true })),
  {
    name: 'nightly-backup',
    kind: 'Program',
    program: { output: 'backup finished: 42 files, 3.1 MB', exit: 0 },
  },
  {
    name: 'disk-usage',
    kind: 'Program',
    program: { output: 'disk usage on /srv: 37% of 20 GB', exit: 0 },
  },
  {
    name: 'cert-expiry',
    kind: 'Program',
    program: { output: 'certificate for shop.example expires in 5 days', exit: 1 },
  },
]

/** The seeded service named `name`; throws when there is none. */
export function seeded(name: string): SeedService {
  const found = SERVICES.find((s) => s.name === name)
  if (!found) throw new Error(`no seeded Monit service ${name}`)
  return found
}

/**
 * The path of every service's own page (`/<name>`), and the form on it posts there too. A
 * RegExp of the seeded names, since the path holds the service the person picked.
 */
export const SERVICE_PATH = new RegExp(`/(?:${SERVICES.map((s) => s.name).join('|')})`)

/** The script that starts and stops the seeded processes, in the instance's dir. */
export const SERVICE_SCRIPT = 'service.sh'

/**
 * `service.sh start|stop <name>`: a process is a shell loop that writes its own pid to
 * `run/<name>.pid` and lives while `run/` exists. Monit runs its start program in a session of
 * its own (setsid), so such a process leaves Monit's process group: it ends by itself within a
 * second once the instance's dir is removed, and `close()` also kills it by its pid. The loop ends
 * at once on SIGTERM (the trap; `wait` returns on a signal where a foreground `sleep` would not),
 * so a stop or restart from the page is done in a moment.
 */
export function serviceScript(dir: string): string {
  const run = join(dir, 'run')
  return [
    '#!/bin/sh',
    `run='${run}'`,
    'case "$1" in',
    'start)',
    '  setsid -f /bin/sh -c \'trap "exit 0" TERM; echo $$ > "$1"; while [ -d "$2" ]; do sleep 1 & wait $!; done\' service "$run/$2.pid" "$run" </dev/null >/dev/null 2>&1',
    '  # Monit reads the pid file right after this returns: wait until the loop wrote it.',
    '  i=0; while [ ! -s "$run/$2.pid" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done ;;',
    'stop)',
    '  [ -s "$run/$2.pid" ] && kill "$(cat "$run/$2.pid")" 2>/dev/null',
    '  rm -f "$run/$2.pid" ;;',
    'esac',
    'exit 0',
    '',
  ].join('\n')
}

/** A program check's script: prints its fixed line, exits with its fixed status. */
export function programScript(program: { output: string; exit: number }): string {
  return `#!/bin/sh\necho '${program.output}'\nexit ${program.exit}\n`
}

/**
 * The whole control file: daemon cycle, log, pid, id and state files all in the instance's dir,
 * the web interface on 127.0.0.1 with the one Basic account, then one check per service.
 */
export function monitrc(dir: string, port: number): string {
  const lines = [
    `set daemon ${POLL_SECONDS}`,
    `set logfile ${join(dir, 'monit.log')}`,
    `set pidfile ${join(dir, 'monit.pid')}`,
    `set idfile ${join(dir, 'monit.id')}`,
    `set statefile ${join(dir, 'monit.state')}`,
    `set httpd port ${port} address 127.0.0.1`,
    `    allow ${USER.name}:${USER.password}`,
    '',
  ]
  const script = join(dir, SERVICE_SCRIPT)
  for (const s of SERVICES) {
    if (s.kind === 'System') lines.push(`check system ${s.name}`)
    if (s.kind === 'Process')
      lines.push(
        `check process ${s.name} with pidfile ${join(dir, 'run', `${s.name}.pid`)}`,
        `    start program = "${script} start ${s.name}"`,
        `    stop program = "${script} stop ${s.name}"`,
      )
    if (s.kind === 'File')
      lines.push(`check file ${s.name} with path ${join(dir, 'files', s.file!.name)}`)
    if (s.kind === 'Directory')
      lines.push(`check directory ${s.name} with path ${join(dir, 'dirs', s.dir!)}`)
    if (s.kind === 'Program')
      lines.push(
        `check program ${s.name} with path ${join(dir, 'programs', `${s.name}.sh`)}`,
        '    if status != 0 then alert',
      )
    if (s.nostart) lines.push('    onreboot nostart')
    lines.push('')
  }
  return lines.join('\n')
}
