import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { writeSeed } from './seed'

/** TiddlyWiki's Node entry point, installed as a dev dependency. */
export const TIDDLYWIKI_JS = resolve('node_modules/tiddlywiki/tiddlywiki.js')

/** A running TiddlyWiki server (Node, the client-server edition) on loopback. */
export interface TiddlyWikiServer {
  origin: string
  close(): Promise<void>
}

/** Asks the OS for a free port on 127.0.0.1 (it is free again when this resolves). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer()
    probe.once('error', fail)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => done(port))
    })
  })
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

/** Kills the child's whole process group; quiet when it is already gone. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return
  try {
    process.kill(-child.pid, 'SIGKILL')
  } catch {
    // Already exited.
  }
}

/** Polls `url` until it answers HTTP at all, or throws after `timeoutMs`. */
async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`TiddlyWiki exited early (${child.exitCode})`)
    try {
      const res = await fetch(url)
      await res.arrayBuffer()
      return
    } catch {
      await new Promise((r) => setTimeout(r, 150))
    }
  }
  throw new Error(`TiddlyWiki did not answer at ${url} within ${timeoutMs} ms`)
}

/**
 * Creates a wiki folder in a fresh temp dir with `--init server` (the client-server edition:
 * tiddlyweb sync plus filesystem storage), writes the seed tiddlers, and serves it anonymously on
 * 127.0.0.1. The server is its own process group so close kills it and anything it forked.
 */
export async function startTiddlyWiki(lifetimeMs: number): Promise<TiddlyWikiServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-tiddlywiki-'))
  const wiki = join(dir, 'wiki')
  let child: ChildProcess | null = null
  let timer: NodeJS.Timeout | null = null
  let closing: Promise<void> | null = null
  const close = (): Promise<void> => {
    closing ??= (async () => {
      if (timer) clearTimeout(timer)
      if (child) {
        const exited = new Promise<void>((r) =>
          child!.exitCode !== null ? r() : child!.once('exit', () => r()),
        )
        killGroup(child)
        await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))])
      }
      rmSync(dir, { recursive: true, force: true })
    })()
    return closing
  }
  try {
    await runOnce([wiki, '--init', 'server'])
    writeSeed(wiki)
    const port = await freePort()
    child = spawn(
      process.execPath,
      [TIDDLYWIKI_JS, wiki, '--listen', 'host=127.0.0.1', `port=${port}`],
      { detached: true, stdio: 'ignore' },
    )
    // A detached child outlives this process unless killed: kill it when this process exits.
    const onExit = () => child && killGroup(child)
    process.once('exit', onExit)
    child.once('exit', () => process.off('exit', onExit))
    timer = setTimeout(() => void close(), lifetimeMs)
    timer.unref()
    const origin = `http://127.0.0.1:${port}`
    await waitForHttp(`${origin}/status`, child, 30_000)
    return { origin, close }
  } catch (error) {
    await close()
    throw error
  }
}

/** Null when TiddlyWiki can run here, else what to install. */
export function tiddlyWikiUnavailable(): string | null {
  if (!existsSync(TIDDLYWIKI_JS))
    return 'tiddlywiki is not installed: run `npm install` (tiddlywiki@5.4.1 is a dev dependency)'
  return null
}
