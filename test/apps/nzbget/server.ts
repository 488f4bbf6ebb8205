/**
 * Starts a private NZBGet: Debian's `/usr/bin/nzbget` in server mode in the foreground
 * (`-s`, console output) with only its own `nzbget.conf` in a fresh temp dir (nothing from
 * `/etc/nzbget.conf` or the home dir), as its own process group, the web UI and JSON-RPC on a
 * free 127.0.0.1 port; then adds the seed through its own JSON-RPC as the control user.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { StorageState } from '../../../src/shared/trace'
import {
  freePort,
  instanceStopper,
  orStop,
  signalGroup,
  spawnServer,
  waitUntil,
} from '../childProcess'
import { basicAuthorization, call, fetchBasic, groups, history, type Caller } from './rpc'
import { CONTROL, HISTORY, QUEUE, nzbgetConfig, nzbFile } from './seed'

/** Where Debian's `nzbget` package puts the binary and the web UI. */
const NZBGET = '/usr/bin/nzbget'
const WEBUI = '/usr/share/nzbget/webui/index.html'

/** A running NZBGet. */
export interface NzbgetServer {
  origin: string
  close(): Promise<void>
}

/** Why NZBGet cannot run here (naming the apt package), or null. */
export function nzbgetUnavailable(): string | null {
  return existsSync(NZBGET) && existsSync(WEBUI)
    ? null
    : 'NZBGet is not installed: apt-get install nzbget'
}

/** The `append` call of the web UI's Add dialog for one NZB (its parameters in that order). */
export function appendParams(
  name: string,
  bytes: Uint8Array,
  category: string,
  priority: number,
  paused: boolean,
): unknown[] {
  const content = Buffer.from(bytes).toString('base64')
  // NZBFilename, Content (base64), Category, Priority, AddToTop, AddPaused, DupeKey, DupeScore,
  // DupeMode, PPParameters.
  return [`${name}.nzb`, content, category, priority, false, paused, '', 0, 'SCORE', []]
}

/**
 * Adds the seed as the control user: the history downloads first (each added paused, deleted to
 * the history, then marked success or bad as its entry says), then the queue in its order. Ids
 * come out 1, 2, 3... on every fresh start; throws when one does not.
 */
async function seed(c: Caller): Promise<void> {
  let expected = 1
  const add = async (
    name: string,
    sizeMb: number,
    category: string,
    priority: number,
    paused: boolean,
  ) => {
    const id = await call(
      c,
      'append',
      appendParams(name, nzbFile(name, sizeMb), category, priority, paused),
    )
    if (id !== expected) throw new Error(`seeding ${name} gave id ${String(id)}, not ${expected}`)
    expected++
    return id
  }
  for (const entry of HISTORY) {
    const id = await add(entry.name, entry.sizeMb, entry.category, 0, true)
    await call(c, 'editqueue', ['GroupDelete', '', [id]])
    if (entry.end === 'success') await call(c, 'editqueue', ['HistoryMarkSuccess', '', [id]])
    if (entry.end === 'bad') await call(c, 'editqueue', ['HistoryMarkBad', '', [id]])
  }
  for (const d of QUEUE) await add(d.name, d.sizeMb, d.category, d.priority, d.state === 'paused')
  // The queue and the history are updated by NZBGet's own threads: wait until both show it all.
  await waitSeeded(c)
}

/** Resolves once `listgroups` and `history` show every seeded entry in its seeded state. */
async function waitSeeded(c: Caller): Promise<void> {
  const deadline = Date.now() + 10_000
  let last = ''
  while (Date.now() < deadline) {
    const queue = await groups(c)
    const past = await history(c)
    const queueOk =
      queue.length === QUEUE.length &&
      QUEUE.every((d, i) => {
        const g = queue[i]
        return g?.NZBName === d.name && g.Status === (d.state === 'paused' ? 'PAUSED' : 'QUEUED')
      })
    const want: Record<string, string> = {
      success: 'SUCCESS/MARK',
      bad: 'FAILURE/BAD',
      deleted: 'DELETED/MANUAL',
    }
    const historyOk =
      past.length === HISTORY.length &&
      HISTORY.every((h) => past.some((p) => p.Name === h.name && p.Status === want[h.end]))
    if (queueOk && historyOk) return
    last = `queue ${queue.map((g) => `${g.NZBName}:${g.Status}`).join(', ')}; history ${past.map((p) => `${p.Name}:${p.Status}`).join(', ')}`
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`the seed did not settle: ${last}`)
}

/**
 * Writes the config, starts NZBGet, waits until it answers the control user, seeds it; stops by
 * itself after `lifetimeMs`. Rejects, after removing everything, when a step fails.
 */
export async function startNzbget(lifetimeMs: number): Promise<NzbgetServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-nzbget-'))
  const remove = () => rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  // SIGKILL at once: nothing of the instance is kept, so NZBGet's orderly stop (saving the queue)
  // would only cost time.
  const stopper = instanceStopper(
    () => {
      process.removeListener('exit', onExit)
      remove()
    },
    { first: 'SIGKILL' },
  )
  // A script that dies without close() (an uncaught error) still ends NZBGet and removes the dir.
  function onExit(): void {
    if (stopper.server) signalGroup(stopper.server.pid, 'SIGKILL')
    remove()
  }
  process.once('exit', onExit)
  return orStop(stopper.stop, async () => {
    const port = await freePort()
    const config = join(dir, 'nzbget.conf')
    writeFileSync(config, nzbgetConfig({ main: dir }, port))
    const origin = `http://127.0.0.1:${port}`
    // -s: server in the foreground; -c: this config only.
    const server = spawnServer(NZBGET, ['-s', '-c', config], {
      cwd: dir,
      env: { PATH: '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' },
      output: { stdout: true, stderr: true },
    })
    stopper.server = server.child
    let last = 'no answer'
    await waitUntil(
      'nzbget',
      server.child,
      async () => {
        // NZBGet keeps retrying a port it could not bind instead of exiting: fail at once.
        if (server.log().includes('Binding socket failed'))
          throw new Error(`nzbget could not listen on ${port}: ${server.log()}`)
        try {
          const res = await fetch(`${origin}/jsonrpc/version`, {
            headers: { authorization: basicAuthorization(CONTROL) },
          })
          last = `GET /jsonrpc/version answered ${res.status}: ${await res.text()}`
          return res.status === 200
        } catch (error) {
          last = String(error)
          return false
        }
      },
      { timeoutMs: 20_000, intervalMs: 100, detail: () => `${last}; ${server.log()}` },
    )
    const session: StorageState = { cookies: [], origins: [] }
    await seed({ fetch: (path, init) => fetchBasic(origin, CONTROL, path, init), session })
    stopper.expireAfter(lifetimeMs)
    return { origin, close: stopper.stop }
  })
}
