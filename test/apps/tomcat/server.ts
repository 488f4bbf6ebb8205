/**
 * Starts a private Tomcat: Debian's tomcat10 (CATALINA_HOME `/usr/share/tomcat10`) run straight
 * from its bootstrap jar by `java`, with a fresh CATALINA_BASE in a temp dir (its own server.xml
 * on a free 127.0.0.1 port, its own users, the Manager and Host Manager of tomcat10-admin), as its
 * own process group. Nothing of `/etc/tomcat10` or the system service is used.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { delay, freePort, instanceStopper, orStop, spawnServer, waitUntil } from '../childProcess'
import { APPS, CHECKER, SESSION_SEED_JSP, baseFiles } from './seed'
import { basicAuthorization } from './session'

/** Debian's CATALINA_HOME (tomcat10 + libtomcat10-java). */
const CATALINA_HOME = '/usr/share/tomcat10'
/** Debian's tomcat10-admin: the Manager and Host Manager web apps. */
const ADMIN_APPS = '/usr/share/tomcat10-admin'
const JAVA = '/usr/bin/java'

/** A running Tomcat. */
export interface TomcatServer {
  origin: string
  /** The instance's CATALINA_BASE. */
  dir: string
  /** When the seed was done (ms): an app whose start time is later was (re)started since. */
  seededAt: number
  close(): Promise<void>
}

/** When each running instance's seed was done, by origin (the reload key compares with it). */
const SEEDED_AT = new Map<string, number>()

/** When the seed of the instance at `origin` was done (ms); throws for an unknown origin. */
export function seededAtOf(origin: string): number {
  const at = SEEDED_AT.get(origin)
  if (at === undefined) throw new Error(`no Tomcat instance started here at ${origin}`)
  return at
}

/** Why Tomcat cannot run here (naming the apt packages), or null. */
export function tomcatUnavailable(): string | null {
  const needed = [`${CATALINA_HOME}/bin/bootstrap.jar`, `${ADMIN_APPS}/manager`, JAVA]
  return needed.every((p) => existsSync(p))
    ? null
    : 'Tomcat is not installed: apt-get install tomcat10 tomcat10-admin'
}

/**
 * Debian's default conf/web.xml (the default and JSP servlets), with sessions tracked by cookie
 * only: otherwise the first Manager page of a session writes `;jsessionid=...` into every link.
 */
function defaultWebXml(): string {
  const xml = readFileSync(`${CATALINA_HOME}/etc/web.xml`, 'utf8')
  return xml.replace(
    /<session-config>/,
    '<session-config>\n        <tracking-mode>COOKIE</tracking-mode>',
  )
}

/** Sends a text-API request as the checker; throws unless Tomcat answers `OK`. */
async function textApi(origin: string, path: string): Promise<string> {
  const res = await fetch(`${origin}${path}`, {
    headers: { authorization: basicAuthorization(CHECKER) },
  })
  const text = await res.text()
  if (res.status !== 200 || !text.startsWith('OK'))
    throw new Error(`GET ${path} answered ${res.status}: ${text.slice(0, 200)}`)
  return text
}

/**
 * Writes the base, starts Tomcat, waits until the Manager's text API lists every seeded app, then
 * seeds what needs a running server: stops the apps meant stopped, opens the idle sessions (the
 * seed JSP, deleted afterwards). Stops by itself after `lifetimeMs`.
 */
export async function startTomcat(lifetimeMs: number): Promise<TomcatServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-tomcat-'))
  // SIGTERM runs Tomcat's shutdown hook (a clean stop takes a second or two).
  const stopper = instanceStopper(
    () => rmSync(dir, { recursive: true, force: true, maxRetries: 3 }),
    {
      graceMs: 8000,
    },
  )
  return orStop(stopper.stop, async () => {
    const port = await freePort()
    const files: Record<string, string> = { ...baseFiles(port), 'conf/web.xml': defaultWebXml() }
    files['conf/catalina.properties'] = readFileSync(
      `${CATALINA_HOME}/etc/catalina.properties`,
      'utf8',
    )
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true })
      writeFileSync(join(dir, path), text)
    }
    for (const sub of ['logs', 'temp', 'work']) mkdirSync(join(dir, sub), { recursive: true })
    const origin = `http://127.0.0.1:${port}`
    const args = [
      // A small heap and a quick JIT: the machine is shared, and start time matters more.
      '-Xms64m',
      '-Xmx256m',
      '-XX:+UseSerialGC',
      '-XX:TieredStopAtLevel=1',
      '-Djava.awt.headless=true',
      '-Duser.timezone=UTC',
      '-Duser.language=en',
      '-Duser.country=US',
      `-Dcatalina.home=${CATALINA_HOME}`,
      `-Dcatalina.base=${dir}`,
      `-Djava.io.tmpdir=${join(dir, 'temp')}`,
      '-Djava.util.logging.manager=org.apache.juli.ClassLoaderLogManager',
      '-cp',
      `${CATALINA_HOME}/bin/bootstrap.jar:${CATALINA_HOME}/bin/tomcat-juli.jar`,
      'org.apache.catalina.startup.Bootstrap',
      'start',
    ]
    const server = spawnServer(JAVA, args, { cwd: dir, output: { stdout: true, stderr: true } })
    stopper.server = server.child
    let last = 'no answer'
    await waitUntil(
      'tomcat',
      server.child,
      async () => {
        try {
          const text = await textApi(origin, '/manager/text/list')
          last = text.slice(0, 200)
          return APPS.every((a) => text.includes(`\n${a.path}:running:`))
        } catch (error) {
          last = String(error)
          return false
        }
      },
      { timeoutMs: 180_000, intervalMs: 500, detail: () => `${last}; ${server.log()}` },
    )
    for (const app of APPS.filter((a) => a.stopped))
      await textApi(origin, `/manager/text/stop?path=${encodeURIComponent(app.path)}`)
    const seeded = await fetch(`${origin}/${SESSION_SEED_JSP}`)
    const said = await seeded.text()
    if (seeded.status !== 200 || !said.includes('seeded'))
      throw new Error(`the session seed answered ${seeded.status}: ${said.slice(0, 300)}`)
    rmSync(join(dir, 'webapps/ROOT', SESSION_SEED_JSP))
    const seededAt = Date.now()
    // The Manager shows start times to the second: a later (re)start must fall in a later second.
    await delay(1100)
    SEEDED_AT.set(origin, seededAt)
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, seededAt, close: stopper.stop }
  })
}
