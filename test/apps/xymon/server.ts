/**
 * Starts a private Xymon: Debian's `xymonlaunch` with its own `tasks.cfg` (xymond on 127.0.0.1,
 * history, alert, xymongen) and lighttpd (Debian's `/usr/sbin/lighttpd`, its own config) serving
 * the generated pages and the CGIs on a free 127.0.0.1 port, the admin CGIs behind HTTP Basic.
 * Both run under one `/bin/sh` that leads their process group, as root, from a temp dir that
 * holds everything: XYMONHOME (its `etc/` is the instance's, `bin/` and `web/` link to
 * Debian's), the data (`var/`), the pages (`www/`) and the logs. Xymon's channels are SysV
 * shared memory keyed on XYMONHOME, so two instances never share them; xymond removes them
 * when it stops (SIGTERM).
 *
 * Then the seed: every status green once, a second later the three problems (so history and
 * the event log hold changes), then disables, scheduled disables and critical-systems records
 * through the admin CGIs, and one xymongen run so the main view shows it all.
 */
import { createHash } from 'node:crypto'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  delay,
  freePort,
  instanceStopper,
  orStop,
  runCommand,
  spawnServer,
  waitUntil,
} from '../childProcess'
import { basicAuthorization } from '../basicAuth'
import {
  CGI,
  DEBIAN_FILES,
  HOSTS,
  LIGHTTPD,
  type Layout,
  PROBLEMS,
  PUBLIC_CGIS,
  SECURE,
  SECURE_CGIS,
  SEEDED_CRITICAL,
  SEEDED_DISABLES,
  SEEDED_SCHEDULES,
  USER,
  WWW,
  XYMON_BIN,
  cgiScript,
  envFile,
  fqdn,
  greenRound,
  homeDir,
  hostsConfig,
  htpasswd,
  lighttpdConfig,
  serverConfig,
  tasksConfig,
} from './seed'
import { forgetXymond, registerXymond } from './session'

/** A running Xymon with its web server. */
export interface XymonServer {
  origin: string
  dir: string
  xymondPort: number
  close(): Promise<void>
}

/** Why Xymon cannot run here (naming the apt packages), or null. */
export function xymonUnavailable(): string | null {
  for (const [path, pkg] of [
    [`${XYMON_BIN}/xymond`, 'xymon'],
    [`${XYMON_BIN}/enadis.cgi`, 'xymon'],
    [DEBIAN_FILES.serverCfg, 'xymon'],
    [LIGHTTPD, 'lighttpd'],
  ] as const)
    if (!existsSync(path))
      return `${path} (${pkg}) is missing: apt-get install --no-install-recommends xymon lighttpd`
  return null
}

/** Writes every file of the instance into `l.dir`. */
function writeInstance(l: Layout): void {
  const d = l.dir
  for (const sub of [
    'home/etc',
    'logs',
    'var/acks',
    'var/data',
    'var/disabled',
    'var/hist',
    'var/histlogs',
    'var/hostdata',
    'var/logs',
    'var/rrd',
    'var/tmp',
    'www/html',
    'www/notes',
    'www/rep',
    'www/snap',
    'www/wml',
    'cgi-bin',
    'cgi-secure',
  ])
    mkdirSync(join(d, sub), { recursive: true })
  symlinkSync(XYMON_BIN, join(homeDir(l), 'bin'))
  symlinkSync(DEBIAN_FILES.webTemplates, join(homeDir(l), 'web'))
  symlinkSync(DEBIAN_FILES.gifs, join(d, 'www/gifs'))
  symlinkSync(DEBIAN_FILES.help, join(d, 'www/help'))
  symlinkSync(DEBIAN_FILES.menuDir, join(d, 'www/menu'))
  const etc = join(homeDir(l), 'etc')
  writeFileSync(envFile(l), serverConfig(l))
  writeFileSync(join(etc, 'hosts.cfg'), hostsConfig())
  writeFileSync(join(etc, 'xymonmenu.cfg'), readFileSync(DEBIAN_FILES.menuCfg))
  writeFileSync(join(etc, 'critical.cfg'), '')
  writeFileSync(join(etc, 'alerts.cfg'), '')
  writeFileSync(join(etc, 'tasks.cfg'), tasksConfig(l))
  for (const [dirName, list] of [
    ['cgi-bin', PUBLIC_CGIS],
    ['cgi-secure', SECURE_CGIS],
  ] as const)
    for (const [script, program, options] of list) {
      const file = join(d, dirName, script)
      writeFileSync(file, cgiScript(l, program, options))
      chmodSync(file, 0o755)
    }
  const sha = createHash('sha1').update(USER.password).digest('base64')
  writeFileSync(join(d, 'htpasswd'), htpasswd(sha))
  writeFileSync(join(d, 'lighttpd.conf'), lighttpdConfig(l))
}

/** The instance's environment for Xymon's own programs run by the seed. */
function xymonEnv(l: Layout): NodeJS.ProcessEnv {
  return {
    PATH: `${XYMON_BIN}:/usr/sbin:/usr/bin:/sbin:/bin`,
    HOME: l.dir,
    LANG: 'C',
    TZ: 'UTC',
  }
}

/** Sends one message to xymond. */
async function send(l: Layout, message: string): Promise<string> {
  return runCommand(`${XYMON_BIN}/xymon`, [`127.0.0.1:${l.xymondPort}`, message], {
    timeout: 15_000,
  })
}

/** `status+1d host.test color text` */
function statusMessage(host: string, test: string, color: string, text: string): string {
  return `status+1d ${fqdn(host)}.${test} ${color} ${new Date().toUTCString()} ${text}`
}

/** POSTs a form to an admin CGI with the Referer of its page, as the browser does. */
async function adminPost(origin: string, path: string, fields: Array<[string, string]>) {
  const res = await fetch(`${origin}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      authorization: basicAuthorization(USER),
      'content-type': 'application/x-www-form-urlencoded',
      referer: `${origin}${path}`,
    },
    body: new URLSearchParams(fields).toString(),
  })
  const text = await res.text()
  if (res.status !== 302 && res.status !== 200)
    throw new Error(`seed: ${path} answered ${res.status}: ${text.slice(0, 300)}`)
}

/** Seeds the state (see the file's comment). */
async function seed(l: Layout, origin: string): Promise<void> {
  for (const s of greenRound()) await send(l, statusMessage(s.host, s.test, s.color, s.text))
  // The history records a change per second at most: the problems come a little later.
  await delay(1500)
  for (const p of PROBLEMS) await send(l, statusMessage(p.host, p.test, p.color, p.text))
  const enadis = `${SECURE}/enadis.sh`
  for (const d of SEEDED_DISABLES)
    await adminPost(origin, enadis, [
      ['hostname', fqdn(d.host)],
      ['disabletest', d.test],
      ['cause', d.cause],
      ['go2', 'Disable for'],
      ['duration', String(d.minutes)],
      ['scale', '1'],
      ['go', 'Disable now'],
    ])
  for (const s of SEEDED_SCHEDULES) {
    const at = new Date(Date.now() + s.daysAhead * 86_400_000)
    await adminPost(origin, enadis, [
      ['hostname', fqdn(s.host)],
      ['disabletest', s.test],
      ['cause', s.cause],
      ['go2', 'Disable for'],
      ['duration', '2'],
      ['scale', '60'],
      ['go', 'Schedule disable'],
      ['month', String(at.getUTCMonth() + 1)],
      ['day', String(at.getUTCDate())],
      ['year', String(at.getUTCFullYear())],
      ['hour', String(s.hour)],
      ['minute', '00'],
    ])
  }
  for (const c of SEEDED_CRITICAL) {
    const q = new URLSearchParams([
      ['HOSTNAME', fqdn(c.host)],
      ['SERVICE', c.test],
      ['PRIORITY', String(c.priority)],
      ['CRITWKDAYS', '*'],
      ['CRITSTARTHOUR', '0000'],
      ['CRITENDHOUR', '2400'],
      ['start-day', '0'],
      ['start-mon', '0'],
      ['start-yr', '0'],
      ['end-day', '0'],
      ['end-mon', '0'],
      ['end-yr', '0'],
      ['GROUP', c.group],
      ['EXTRA', c.instruction],
      ['Update', 'Update record'],
    ])
    const path = `${SECURE}/criticaleditor.sh?${q}`
    const res = await fetch(`${origin}${path}`, {
      headers: {
        authorization: basicAuthorization(USER),
        referer: `${origin}${SECURE}/criticaleditor.sh`,
      },
    })
    await res.text()
    if (res.status !== 200) throw new Error(`seed: criticaleditor answered ${res.status}`)
  }
  // The main view now, not at xymongen's next round.
  await runCommand(`${XYMON_BIN}/xymongen`, [`--env=${envFile(l)}`], { timeout: 30_000 }).catch(
    (error: unknown) => {
      throw new Error(`seed: xymongen failed: ${String(error)}`)
    },
  )
}

/** Null once xymond holds the seed, the pages show it and the admin lists are there. */
async function seeded(l: Layout, origin: string): Promise<string | null> {
  const board = await send(l, 'xymondboard fields=hostname,testname,color,disabletime')
  for (const p of PROBLEMS)
    if (!board.includes(`${fqdn(p.host)}|${p.test}|${p.color}|`))
      return `xymond lacks ${p.host}.${p.test} ${p.color}`
  const disabled = board.split('\n').filter((l) => /\|blue\|[1-9]/.test(l)).length
  if (disabled < SEEDED_DISABLES.length) return `${disabled} disabled tests`
  const jobs = (await send(l, 'schedule')).split('\n').filter((x) => x.trim()).length
  if (jobs !== SEEDED_SCHEDULES.length) return `${jobs} scheduled jobs`
  const main = await fetch(`${origin}${WWW}/xymon.html`)
  const html = await main.text()
  if (main.status !== 200) return `the main view answered ${main.status}`
  for (const h of HOSTS) if (!html.includes(fqdn(h.short))) return `the main view lacks ${h.short}`
  const find = await fetch(`${origin}${CGI}/findhost.sh?host=web01`)
  await find.text()
  if (find.status !== 200) return `findhost answered ${find.status}`
  return null
}

/**
 * Writes the instance, starts Xymon and lighttpd, seeds them and waits until the seed shows;
 * stops by itself after `lifetimeMs`. Rejects, after removing everything, when a step fails.
 */
export async function startXymon(lifetimeMs: number): Promise<XymonServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-xymon-'))
  let origin = ''
  const stopper = instanceStopper(() => {
    if (origin) forgetXymond(origin)
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  })
  return orStop(stopper.stop, async () => {
    const xymondPort = await freePort()
    let httpPort = await freePort()
    while (httpPort === xymondPort) httpPort = await freePort()
    const l: Layout = { dir, xymondPort, httpPort }
    writeInstance(l)
    const tasks = join(homeDir(l), 'etc', 'tasks.cfg')
    // xymonlaunch in the background of the shell, lighttpd exec'd in its place: one process
    // group holds lighttpd, xymonlaunch and every xymond task it starts.
    const script =
      `${XYMON_BIN}/xymonlaunch --no-daemon --config=${tasks} --env=${envFile(l)} ` +
      `--log=${dir}/logs/xymonlaunch.log --pidfile=${dir}/logs/xymonlaunch.pid & ` +
      `exec ${LIGHTTPD} -D -f ${join(dir, 'lighttpd.conf')}`
    const server = spawnServer('/bin/sh', ['-c', script], {
      cwd: dir,
      env: xymonEnv(l),
      output: { stdout: true, stderr: true },
    })
    stopper.server = server.child
    origin = `http://127.0.0.1:${httpPort}`
    registerXymond(origin, xymondPort)
    // Wait for xymond and lighttpd, then seed.
    let last = 'no answer'
    await waitUntil(
      'xymon',
      server.child,
      async () => {
        try {
          await send(l, 'ping')
          const res = await fetch(`${origin}${CGI}/findhost.sh`)
          await res.text()
          last = `findhost ${res.status}`
          return res.status === 200
        } catch (error) {
          last = String(error)
          return false
        }
      },
      { timeoutMs: 30_000, intervalMs: 200, detail: () => `${last}; ${server.log()}` },
    )
    // xymond hands a status change only to the channel readers already attached: history and
    // alert must be up before the seed (xymonlaunch starts them a few seconds after xymond; each
    // opens its log file when it attaches).
    await waitUntil(
      'xymon channels',
      server.child,
      async () =>
        existsSync(join(dir, 'logs', 'history.log')) && existsSync(join(dir, 'logs', 'alert.log')),
      { timeoutMs: 30_000, intervalMs: 200, detail: () => server.log() },
    )
    await delay(500)
    await seed(l, origin)
    await waitUntil(
      'xymon seed',
      server.child,
      async () => {
        try {
          last = (await seeded(l, origin)) ?? 'ready'
          return last === 'ready'
        } catch (error) {
          last = String(error)
          return false
        }
      },
      { timeoutMs: 30_000, intervalMs: 300, detail: () => `${last}; ${server.log()}` },
    )
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, xymondPort, close: stopper.stop }
  })
}
