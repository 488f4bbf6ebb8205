/**
 * Starts a private Fossil server: a freshly seeded repository in a temp dir (see seed.ts), served
 * by `fossil server --localhost` on a free port as its own process group. Fossil forks one child
 * per request; killing the group ends them all.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, instanceStopper, orStop, spawnServer, waitForHttp } from '../childProcess'
import { FOSSIL, fossilEnv, seedRepository } from './seed'

/** A running Fossil server. */
export interface FossilServer {
  origin: string
  /** The instance's temp dir (the repository is `repo.fossil` in it). */
  dir: string
  repo: string
  close(): Promise<void>
}

/** Why Fossil cannot run here (naming the apt package), or null. */
export function fossilUnavailable(): string | null {
  return existsSync(FOSSIL) ? null : 'Fossil is not installed: apt-get install fossil'
}

/**
 * Seeds a fresh repository and serves it; stops by itself after `lifetimeMs`. Rejects, after
 * removing everything, when a step fails.
 */
export async function startFossilServer(lifetimeMs: number): Promise<FossilServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-fossil-'))
  const repo = join(dir, 'repo.fossil')
  const stopper = instanceStopper(() =>
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 }),
  )
  return orStop(stopper.stop, async () => {
    seedRepository(dir, repo)
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    // --nojail: run as root, Fossil would otherwise chroot into the repository's dir.
    const server = spawnServer(
      FOSSIL,
      ['server', '--localhost', '--port', String(port), '--nojail', repo],
      { cwd: dir, env: fossilEnv(dir), output: { stderr: true } },
    )
    stopper.server = server.child
    await waitForHttp(`${origin}/index`, server.child, {
      name: 'fossil server',
      timeoutMs: 30_000,
      redirect: 'manual',
    })
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, repo, close: stopper.stop }
  })
}
