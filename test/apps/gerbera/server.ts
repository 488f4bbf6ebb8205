/**
 * Starts a private Gerbera. Gerbera 1.1.0 is a UPnP server: it refuses a loopback address
 * (libupnp 1.8 skips loopback interfaces, `--ip 127.0.0.1` fails with UPNP_E_INVALID_INTERFACE)
 * and announces itself by SSDP multicast. So it runs in namespaces of its own
 * (`unshare --net --mount`): a private network namespace holding only `lo` and a veth pair whose
 * end `gb0` has the address 127.0.0.2 (Gerbera binds there; its SSDP has no route anywhere and
 * nothing can leave the namespace), and a private mount namespace where the instance's `srv/` is
 * bound on `/srv`, so the library is at the same path (`/srv/media`, see seed.ts) on every start
 * and the Filesystem view's ids (hex of the path) are the same too.
 *
 * The browser reaches it through two forwarders: inside the namespace a small Node process
 * accepts on a Unix socket in the instance dir and connects to 127.0.0.2:49152; outside, this
 * process listens on a free 127.0.0.1 port and forwards to that socket. The outer one also
 * repairs one protocol slip of Gerbera's answers (see {@link repairHead}).
 */
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createConnection, createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  signalGroup,
  spawnServer,
  waitForHttp,
  waitUntil,
} from '../childProcess'
import {
  ACCOUNT,
  INNER_ADDRESS,
  INNER_PORT,
  MEDIA_ROOT,
  SEEDED_AUTOSCANS,
  configXml,
  startupFiles,
  writeMedia,
} from './seed'
import { fsId } from './api'
import { autoscanParams, callInterface, signInByHttp, sidOf } from './session'

/** Debian's `gerbera` package: the binary and the web UI it serves. */
const GERBERA = '/usr/bin/gerbera'
const WEB_UI = '/usr/share/gerbera/web/index.html'
/** util-linux's unshare (Essential in Debian) and iproute2's ip. */
const UNSHARE = '/usr/bin/unshare'
const IP_CANDIDATES = ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip', '/bin/ip']

/**
 * Set `GERBERA_RAW_HEADERS=1` to forward Gerbera's answers byte for byte (see
 * {@link repairHead}): Node's fetch, and undici in Sitecall's engine, then refuse every answer
 * of `/content/interface`.
 */
const RAW_HEADERS = process.env['GERBERA_RAW_HEADERS'] === '1'

/** A running Gerbera. */
export interface GerberaServer {
  origin: string
  /** The instance's temp dir (`home/` with config and database, `srv/media/` the library). */
  dir: string
  close(): Promise<void>
}

/** The path of iproute2's `ip`, or null when it is not installed. */
function ipBinary(): string | null {
  return IP_CANDIDATES.find((p) => existsSync(p)) ?? null
}

/** Why Gerbera cannot run here (naming the apt package), or null. */
export function gerberaUnavailable(): string | null {
  if (!existsSync(GERBERA) || !existsSync(WEB_UI))
    return 'Gerbera is not installed: apt-get install gerbera'
  if (!existsSync(UNSHARE)) return 'unshare is missing: apt-get install util-linux'
  if (!ipBinary()) return 'ip is missing: apt-get install iproute2'
  if (!existsSync('/srv')) return 'the /srv directory is missing (Debian base-files has it)'
  return null
}

/**
 * The script the namespaced shell runs: bind the library on /srv, bring up `lo` and the veth
 * pair (IPv6 off on it: a fresh link-local address is still "tentative" when Gerbera binds, and
 * libupnp then fails), start the inner forwarder, and become Gerbera (exec keeps the pid, so
 * Gerbera is the process-group leader the stopper signals). `$@` holds the `--add` arguments.
 */
function innerScript(ip: string): string {
  return `set -e
mount --bind "$GB_SRV" /srv
${ip} link set lo up
${ip} link add gb0 type veth peer name gb1
for dev in gb0 gb1; do
  f=/proc/sys/net/ipv6/conf/$dev/disable_ipv6
  if [ -w "$f" ]; then echo 1 > "$f"; fi
done
${ip} link set gb1 up
${ip} link set gb0 up
${ip} addr add ${INNER_ADDRESS}/32 dev gb0
"$GB_NODE" -e "$GB_FORWARD" "$GB_SOCKET" ${INNER_ADDRESS} ${INNER_PORT} "$GB_OWNER" &
exec ${GERBERA} --home "$GB_HOME" --config "$GB_HOME/config.xml" --port ${INNER_PORT} --ip ${INNER_ADDRESS} "$@"
`
}

/**
 * The inner forwarder (run with `node -e` inside the namespaces): Unix socket to Gerbera's TCP
 * port, bytes unchanged. It exits when its parent (Gerbera) is gone, so it never outlives it,
 * and it ends its whole process group (Gerbera too) when the Node process that started the
 * instance is gone without closing it (killed), which no exit handler there can do.
 */
const INNER_FORWARDER = `
const net = require('net')
const [socketPath, host, port, owner] = process.argv.slice(1)
const parent = process.ppid
// ESRCH only: from a user namespace (not root) the owner may answer EPERM and still be alive.
const ownerAlive = () => { try { process.kill(Number(owner), 0); return true } catch (e) { return e.code !== 'ESRCH' } }
net.createServer((client) => {
  const up = net.connect(Number(port), host)
  const drop = () => { client.destroy(); up.destroy() }
  client.on('error', drop)
  up.on('error', drop)
  client.pipe(up)
  up.pipe(client)
}).listen(socketPath)
setInterval(() => {
  if (process.ppid !== parent) process.exit(0)
  if (!ownerAlive()) process.kill(0, 'SIGTERM')
}, 500)
`

/** Where the header block of an HTTP answer ends (after its blank line), or -1. */
function headEnd(bytes: Buffer): number {
  for (let i = 0; i < bytes.length - 1; i++) {
    if (bytes[i] !== 0x0a) continue
    if (bytes[i + 1] === 0x0a) return i + 2
    if (bytes[i + 1] === 0x0d && bytes[i + 2] === 0x0a) return i + 3
  }
  return -1
}

/**
 * Gerbera 1.1.0 ends one header line of every `/content/interface` answer with a bare LF
 * (`Cache-Control: no-cache, must-revalidate\n`). Browsers accept it; llhttp, the parser of
 * Node's fetch and of undici, rejects the whole answer (HPE_INVALID_HEADER_TOKEN). The outer
 * forwarder rewrites the line ends of the header block to CRLF, as any reverse proxy in front of
 * Gerbera would; the body is untouched.
 */
function repairHead(head: Buffer): Buffer {
  return Buffer.from(head.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1')
}

/** Forwards one browser connection to the Unix socket, repairing the answer's header block. */
function forward(client: Socket, socketPath: string): void {
  const up = createConnection(socketPath)
  const drop = () => {
    client.destroy()
    up.destroy()
  }
  client.on('error', drop)
  up.on('error', drop)
  client.pipe(up)
  if (RAW_HEADERS) {
    up.pipe(client)
    return
  }
  // Gerbera answers `Connection: close`, one answer per connection: only the first head is read.
  let pending: Buffer | null = Buffer.alloc(0)
  up.on('data', (chunk: Buffer) => {
    if (!pending) {
      client.write(chunk)
      return
    }
    pending = Buffer.concat([pending, chunk])
    const end = headEnd(pending)
    if (end < 0 && pending.length < 65536) return
    const cut = end < 0 ? pending.length : end
    client.write(repairHead(pending.subarray(0, cut)))
    if (cut < pending.length) client.write(pending.subarray(cut))
    pending = null
  })
  up.on('end', () => {
    if (pending?.length) client.write(pending)
    client.end()
  })
}

/** Listens on 127.0.0.1:`port` and forwards every connection to `socketPath`. */
function outerForwarder(port: number, socketPath: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((client) => forward(client, socketPath))
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve(server))
  })
}

/**
 * Waits until Gerbera has no import or scan task running, twice in a row (its answers name the
 * running task in `task`), so every seeded object exists before a workflow runs.
 */
async function waitForIdle(
  origin: string,
  sid: string,
  name: string,
  child: ChildProcess,
): Promise<void> {
  let idleBefore = false
  let last = ''
  await waitUntil(
    name,
    child,
    async () => {
      const answer = await callInterface(origin, sid, { req_type: 'void' })
      last = JSON.stringify(answer)
      const idle = answer['success'] === true && !('task' in answer)
      const done = idle && idleBefore
      idleBefore = idle
      return done
    },
    { timeoutMs: 60_000, intervalMs: 200, detail: () => last },
  )
}

/**
 * Writes a fresh instance dir and serves it; stops by itself after `lifetimeMs`. Rejects, after
 * removing everything, when a step fails.
 */
export async function startGerberaServer(lifetimeMs: number): Promise<GerberaServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-gerbera-'))
  let outer: Server | null = null
  let forget: (() => void) | null = null
  const stopper = instanceStopper(async () => {
    forget?.()
    // When Gerbera died on its own, killGroup sent nothing: the inner forwarder may still run.
    signalGroup(stopper.server?.pid, 'SIGKILL')
    await new Promise<void>((resolve) => (outer ? outer.close(() => resolve()) : resolve()))
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  })
  return orStop(stopper.stop, async () => {
    const ip = ipBinary()
    if (!ip) throw new Error('ip (iproute2) is missing')
    const home = join(dir, 'home')
    const srv = join(dir, 'srv')
    mkdirSync(home)
    writeFileSync(join(home, 'config.xml'), configXml(home))
    writeMedia(join(srv, 'media'))
    const script = join(dir, 'inner.sh')
    writeFileSync(script, innerScript(ip))
    const socketPath = join(dir, 'http.sock')
    const asRoot = process.getuid?.() === 0
    const adds = startupFiles().flatMap((file) => ['--add', file])
    const server = spawnServer(
      UNSHARE,
      [...(asRoot ? [] : ['--map-root-user']), '--net', '--mount', 'sh', script, ...adds],
      {
        cwd: dir,
        env: {
          PATH: process.env['PATH'] ?? '/usr/sbin:/usr/bin:/sbin:/bin',
          HOME: home,
          LANG: 'C.UTF-8',
          GB_SRV: srv,
          GB_HOME: home,
          GB_SOCKET: socketPath,
          GB_NODE: process.execPath,
          GB_FORWARD: INNER_FORWARDER,
          GB_OWNER: String(process.pid),
        },
        output: { stdout: true, stderr: true },
      },
    )
    stopper.server = server.child
    forget = killOnExit(server.child)
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    outer = await outerForwarder(port, socketPath)
    try {
      await waitForHttp(
        `${origin}/content/interface?req_type=auth&action=get_config`,
        server.child,
        {
          name: 'gerbera',
          timeoutMs: 30_000,
          // A request that arrives while Gerbera is still starting can stay unanswered: retry soon.
          requestTimeoutMs: 1000,
          ready: (res) => res.status === 200,
        },
      )
      // The seeded autoscan folders, as the UI's Set button makes them (after the `--add`
      // imports: their containers then exist, and the scan each one starts adds nothing new).
      const sid = sidOf(await signInByHttp(origin, ACCOUNT))
      await waitForIdle(origin, sid, 'gerbera (import)', server.child)
      for (const scan of SEEDED_AUTOSCANS) {
        const answer = await callInterface(
          origin,
          sid,
          autoscanParams(fsId(`${MEDIA_ROOT}/${scan.folder}`), true, scan.interval),
        )
        if (answer['success'] !== true)
          throw new Error(`autoscan of ${scan.folder} failed: ${JSON.stringify(answer)}`)
        await waitForIdle(origin, sid, 'gerbera (scan)', server.child)
      }
    } catch (error) {
      throw new Error(`${String(error)}\n${server.log()}`)
    }
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
