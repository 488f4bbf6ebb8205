/**
 * Starts a private HAProxy: Debian's `/usr/sbin/haproxy` in the foreground (`-db`) with only its
 * own `haproxy.cfg` in a temp dir (no system config, no chroot, no user switch, no syslog), its
 * own process group, the stats page on a free 127.0.0.1 port. Resolves once the stats page
 * answers and every seeded server shows its seeded state (the first health checks ran).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, instanceStopper, orStop, spawnServer, waitUntil } from '../childProcess'
import { BACKENDS, USER, haproxyConfig, seededStatus } from './seed'
import { basicAuthorization, parseStatsCsv } from './session'

/** Where Debian's `haproxy` package puts the binary. */
const HAPROXY = '/usr/sbin/haproxy'

/** A running HAProxy. */
export interface HaproxyServer {
  origin: string
  /** The instance's temp dir (holds `haproxy.cfg`). */
  dir: string
  close(): Promise<void>
}

/** Why HAProxy cannot run here (naming the apt package), or null. */
export function haproxyUnavailable(): string | null {
  return existsSync(HAPROXY) ? null : 'HAProxy is not installed: apt-get install haproxy'
}

/** Three distinct free ports (the kernel could hand the same one out twice in a row). */
async function threePorts(): Promise<[number, number, number]> {
  const ports = new Set<number>()
  while (ports.size < 3) ports.add(await freePort())
  return [...ports] as [number, number, number]
}

/**
 * True when every seeded server shows its seeded state in the CSV export: healthy ones `UP`
 * (their first check passed; before it they read `UP 1/3` with check status `INI`), the retired
 * one `DOWN`, the disabled ones `MAINT`.
 */
function settled(csv: string): boolean {
  const rows = parseStatsCsv(csv)
  return BACKENDS.every((b) =>
    b.servers.every((s) =>
      rows.some((r) => r.backend === b.name && r.server === s.name && r.status === seededStatus(s)),
    ),
  )
}

/**
 * Writes the config, starts HAProxy and waits until it is settled; stops by itself after
 * `lifetimeMs`. Rejects, after removing everything, when a step fails.
 */
export async function startHaproxy(lifetimeMs: number): Promise<HaproxyServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-haproxy-'))
  const stopper = instanceStopper(() =>
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 }),
  )
  return orStop(stopper.stop, async () => {
    const [stats, up, down] = await threePorts()
    const config = join(dir, 'haproxy.cfg')
    writeFileSync(config, haproxyConfig({ stats, up, down }))
    const origin = `http://127.0.0.1:${stats}`
    // -db: foreground, no daemon; -f: this file only (nothing from /etc/haproxy).
    const server = spawnServer(HAPROXY, ['-db', '-f', config], {
      cwd: dir,
      output: { stdout: true, stderr: true },
    })
    stopper.server = server.child
    let last = 'no answer'
    await waitUntil(
      'haproxy',
      server.child,
      async () => {
        try {
          const res = await fetch(`${origin}/;csv`, {
            headers: { authorization: basicAuthorization(USER) },
          })
          const text = await res.text()
          last = `GET /;csv answered ${res.status}`
          return res.status === 200 && settled(text)
        } catch (error) {
          last = String(error)
          return false
        }
      },
      { timeoutMs: 30_000, intervalMs: 200, detail: () => `${last}; ${server.log()}` },
    )
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
