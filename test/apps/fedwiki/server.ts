/**
 * Starting Federated Wiki (npm `wiki`, a dev dependency) for the corpus: its CLI run with this
 * Node, from a temp dir (it reads `config.json` from the working dir and `~/.wiki/config.json`, so
 * HOME points there too), on a free loopback port, with the seed data dir and the friends security
 * module. The CLI is a cluster primary that forks one worker: both are in the process group that
 * close() kills.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  spawnServer,
  waitForHttp,
} from '../childProcess'
import { writeSeed } from './seed'

/** The wiki's CLI, installed as a dev dependency. */
const WIKI_JS = resolve('node_modules/wiki/index.js')
/** Where the wiki's packages (wiki-client, wiki-plugin-*, wiki-security-friends) are installed. */
const PACKAGE_DIR = resolve('node_modules')

/** A running wiki on loopback. */
export interface FedWikiServer {
  origin: string
  close(): Promise<void>
}

/** Starts a fresh seeded wiki; resolves once its welcome page's JSON answers. */
export async function startFedWiki(lifetimeMs: number): Promise<FedWikiServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-fedwiki-'))
  const data = join(dir, 'data')
  const stopper = instanceStopper(() => rmSync(dir, { recursive: true, force: true }), {
    first: 'SIGKILL',
  })
  return orStop(stopper.stop, async () => {
    writeSeed(data)
    const port = await freePort()
    const server = spawnServer(
      process.execPath,
      [
        WIKI_JS,
        '--port',
        String(port),
        '--host',
        '127.0.0.1',
        '--data',
        data,
        '--packageDir',
        PACKAGE_DIR,
        '--security_type',
        'friends',
        '--cookieSecret',
        'sitecall-corpus-fedwiki-cookie-secret',
      ],
      { cwd: dir, env: { ...process.env, HOME: dir }, output: { stdout: true, stderr: true } },
    )
    const child = server.child
    stopper.server = child
    const forget = killOnExit(child)
    child.once('exit', forget)
    stopper.expireAfter(lifetimeMs)
    const origin = `http://127.0.0.1:${port}`
    await waitForHttp(`${origin}/welcome-visitors.json`, child, {
      name: 'Federated Wiki',
      timeoutMs: 60_000,
      intervalMs: 200,
      ready: (res) => res.status === 200,
    })
    return { origin, close: stopper.stop }
  })
}

/** Null when the wiki can run here, else what to install. */
export function fedWikiUnavailable(): string | null {
  if (!existsSync(WIKI_JS))
    return 'wiki is not installed: run `npm install` (wiki@0.40.2 is a dev dependency)'
  return null
}
