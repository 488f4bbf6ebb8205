import { spawn } from 'node:child_process'
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

/** TiddlyWiki's Node entry point, installed as a dev dependency. */
const TIDDLYWIKI_JS = resolve('node_modules/tiddlywiki/tiddlywiki.js')

/** A running TiddlyWiki server (Node, the client-server edition) on loopback. */
export interface TiddlyWikiServer {
  origin: string
  close(): Promise<void>
}

/** Runs `node tiddlywiki.js args` to its end (used for `--init`); rejects on a non-zero exit. */
function runOnce(args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [TIDDLYWIKI_JS, ...args], { stdio: 'ignore' })
    child.once('error', fail)
    child.once('exit', (code) =>
      code === 0 ? done() : fail(new Error(`tiddlywiki ${args.join(' ')} exited ${code}`)),
    )
  })
}

/**
 * Creates a wiki folder in a fresh temp dir with `--init server` (the client-server edition:
 * tiddlyweb sync plus filesystem storage), writes the seed tiddlers, and serves it anonymously on
 * 127.0.0.1. The server is its own process group so close kills it and anything it forked.
 */
export async function startTiddlyWiki(lifetimeMs: number): Promise<TiddlyWikiServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-tiddlywiki-'))
  const wiki = join(dir, 'wiki')
  // No SIGTERM first: the wiki is in a temp dir about to be removed, nothing needs saving.
  const stopper = instanceStopper(() => rmSync(dir, { recursive: true, force: true }), {
    first: 'SIGKILL',
  })
  return orStop(stopper.stop, async () => {
    await runOnce([wiki, '--init', 'server'])
    writeSeed(wiki)
    const port = await freePort()
    const child = spawnServer(process.execPath, [
      TIDDLYWIKI_JS,
      wiki,
      '--listen',
      'host=127.0.0.1',
      `port=${port}`,
    ]).child
    stopper.server = child
    // A detached child outlives this process unless killed: kill it when this process exits.
    const forget = killOnExit(child)
    child.once('exit', forget)
    stopper.expireAfter(lifetimeMs)
    const origin = `http://127.0.0.1:${port}`
    await waitForHttp(`${origin}/status`, child, {
      name: 'TiddlyWiki',
      timeoutMs: 30_000,
      intervalMs: 150,
    })
    return { origin, close: stopper.stop }
  })
}

/** Null when TiddlyWiki can run here, else what to install. */
export function tiddlyWikiUnavailable(): string | null {
  if (!existsSync(TIDDLYWIKI_JS))
    return 'tiddlywiki is not installed: run `npm install` (tiddlywiki@5.4.1 is a dev dependency)'
  return null
}
