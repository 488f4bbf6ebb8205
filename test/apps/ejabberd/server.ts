/**
 * Starts a private ejabberd: Debian's Erlang release run with `erl` directly (not `ejabberdctl`,
 * which wants the `ejabberd` system user, `/etc/ejabberd` and `/var/lib/ejabberd`), with its own
 * config file, Mnesia spool and log in a temp dir, its own node name and cookie, and its Erlang
 * distribution on a free loopback port without epmd (so nothing outlives it and no system
 * ejabberd can clash with it). Resolves once the seed is in and the web admin lets the admin in.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  spawnServer,
  waitUntil,
} from '../childProcess'
import { basicAuthorization } from '../basicAuth'
import { HOST, USER, ejabberdConfig, seed, type ApiCall } from './seed'

/** Debian's Erlang emulator front end (package `erlang-base`, pulled in by `ejabberd`). */
const ERL = '/usr/bin/erl'
/** Where Debian's `ejabberd` package puts its Erlang applications (`ERL_LIBS`). */
const ERL_LIBS = '/usr/lib/x86_64-linux-gnu'
/** The ejabberd application itself, to tell a missing package from a missing Erlang. */
const EJABBERD_APP = join(ERL_LIBS, 'ejabberd-23.01-1')

/** A running ejabberd. */
export interface EjabberdServer {
  /** The web admin's origin (`/admin/` under it). */
  origin: string
  /** `mod_http_api`'s own listener, `http://127.0.0.1:PORT/api` (loopback only, no login). */
  apiBase: string
  /** Calls one `mod_http_api` command on this instance. */
  api: ApiCall
  /** The instance's temp dir (config, spool, logs). */
  dir: string
  close(): Promise<void>
}

/** Why ejabberd cannot run here (naming the apt package), or null. */
export function ejabberdUnavailable(): string | null {
  return existsSync(ERL) && existsSync(EJABBERD_APP)
    ? null
    : 'ejabberd 23.01 is not installed: apt-get install ejabberd'
}

/** `count` distinct free ports (the kernel could hand the same one out twice in a row). */
async function distinctPorts(count: number): Promise<number[]> {
  const ports = new Set<number>()
  while (ports.size < count) ports.add(await freePort())
  return [...ports]
}

/**
 * `mod_http_api` at `apiBase`: `POST <apiBase>/<command>` with the arguments as a JSON object;
 * resolves with the parsed JSON answer, throws on any status but 200 (with the body).
 */
function apiCaller(apiBase: string): ApiCall {
  return async (command, args) => {
    const res = await fetch(`${apiBase}/${command}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(args),
    })
    const text = await res.text()
    if (res.status !== 200)
      throw new Error(`ejabberd API ${command} answered ${res.status}: ${text}`)
    return JSON.parse(text) as unknown
  }
}

/**
 * Writes the config, starts ejabberd, seeds it and waits until web admin answers the admin;
 * stops by itself after `lifetimeMs`. Rejects, after removing everything, when a step fails.
 */
export async function startEjabberd(lifetimeMs: number): Promise<EjabberdServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-ejabberd-'))
  let forget: (() => void) | null = null
  const stopper = instanceStopper(
    () => {
      forget?.()
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
    },
    // Erlang takes SIGTERM as `init:stop()`: Mnesia closes its files in well under a second.
    { first: 'SIGTERM', graceMs: 5000 },
  )
  return orStop(stopper.stop, async () => {
    const [c2s, http, api, dist] = (await distinctPorts(4)) as [number, number, number, number]
    for (const sub of ['spool', 'log']) mkdirSync(join(dir, sub))
    const config = join(dir, 'ejabberd.yml')
    writeFileSync(config, ejabberdConfig({ c2s, http, api }))
    const node = `sitecall-ejabberd-${http}@localhost`
    const cookie = randomBytes(16).toString('hex')
    const args = [
      '-sname',
      node,
      '-setcookie',
      cookie,
      // Distribution on a fixed free loopback port and no epmd: no daemon left behind.
      '-start_epmd',
      'false',
      '-erl_epmd_port',
      String(dist),
      '-kernel',
      'inet_dist_use_interface',
      '{127,0,0,1}',
      '-noinput',
      '-mnesia',
      'dir',
      JSON.stringify(join(dir, 'spool')),
      '-ejabberd',
      'config',
      JSON.stringify(config),
      'log_path',
      JSON.stringify(join(dir, 'log', 'ejabberd.log')),
      '-s',
      'ejabberd',
    ]
    const server = spawnServer(ERL, args, {
      cwd: dir,
      env: {
        ...process.env,
        HOME: dir,
        ERL_LIBS,
        ERL_CRASH_DUMP: join(dir, 'log', 'erl_crash.dump'),
      },
      output: { stdout: true, stderr: true },
    })
    stopper.server = server.child
    forget = killOnExit(server.child)
    const apiBase = `http://127.0.0.1:${api}/api`
    const call = apiCaller(apiBase)
    let last = 'no answer'
    const poll = async (ready: () => Promise<boolean>, what: string, timeoutMs: number) =>
      waitUntil(
        'ejabberd',
        server.child,
        async () => {
          try {
            return await ready()
          } catch (error) {
            last = `${what}: ${String(error)}`
            return false
          }
        },
        { timeoutMs, intervalMs: 250, detail: () => `${last}; ${server.log()}` },
      )
    await poll(
      async () => Array.isArray(await call('registered_users', { host: HOST })),
      'API',
      60_000,
    )
    await seed(call)
    const origin = `http://127.0.0.1:${http}`
    await poll(
      async () => {
        const res = await fetch(`${origin}/admin/`, {
          headers: { authorization: basicAuthorization(USER) },
        })
        await res.arrayBuffer()
        last = `GET /admin/ answered ${res.status}`
        return res.status === 200
      },
      'web admin',
      15_000,
    )
    stopper.expireAfter(lifetimeMs)
    return { origin, apiBase, api: call, dir, close: stopper.stop }
  })
}
