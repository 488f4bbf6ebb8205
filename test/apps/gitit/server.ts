/**
 * Starts a private Gitit (Debian's `gitit` 0.15.1, a Happstack server) from a temp dir: its own
 * config file (Gitit's `--print-default-config` with the address, port and every path changed to
 * the temp dir, login required to modify, an access question for sign-ups), a git repository
 * seeded by `git commit` before Gitit starts (see `seed.ts`), and a user file holding the seeded
 * user. Gitit adds the pages it needs (Front Page, Help, its user's guide) to the repository on
 * its first start, copies its templates and a few static files into the temp dir, and serves the
 * rest of its static files from its package's data dir. It runs in the foreground as the leader
 * of its own process group; `close()` ends it and removes the temp dir.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  spawnServer,
  waitForHttp,
} from '../childProcess'
import { ACCESS, seedRepository, usersFile } from './seed'

const GITIT = '/usr/bin/gitit'
const GIT = '/usr/bin/git'

/** A running Gitit. */
export interface GititServer {
  origin: string
  /** The temp dir: `wikidata/` is the wiki's git repository (its working tree holds the pages). */
  dir: string
  /** The wiki's git repository. */
  repo: string
  close(): Promise<void>
}

/** Why Gitit cannot run here (naming the apt packages), or null. */
export function gititUnavailable(): string | null {
  const install = 'apt-get install --no-install-recommends gitit git'
  if (!existsSync(GITIT)) return `Gitit is not installed: ${install}`
  if (!existsSync(GIT)) return `git is not installed: ${install}`
  return null
}

/** The instance's config: Gitit's defaults, with what differs from them. */
function config(dir: string, port: number): string {
  return `address: 127.0.0.1
port: ${port}
wiki-title: Team Wiki
repository-type: Git
repository-path: ${join(dir, 'wikidata')}
require-authentication: modify
authentication-method: form
user-file: ${join(dir, 'gitit-users')}
session-timeout: 60
static-dir: ${join(dir, 'static')}
templates-dir: ${join(dir, 'templates')}
log-file: ${join(dir, 'gitit.log')}
log-level: WARNING
front-page: Front Page
no-delete: Front Page, Help
no-edit: Help
default-summary:
table-of-contents: no
use-cache: no
cache-dir: ${join(dir, 'cache')}
max-upload-size: 100K
max-page-size: 100K
compress-responses: no
mail-command:
use-recaptcha: no
disable-registration: no
access-question: ${ACCESS.question}
access-question-answers: ${ACCESS.answers.join(', ')}
use-feed: no
math: raw
xss-sanitize: yes
recent-activity-days: 3650
`
}

/**
 * Builds, seeds and serves a fresh instance; stops by itself after `lifetimeMs`. Rejects, after
 * stopping and removing everything, when a step fails.
 */
export async function startGititServer(lifetimeMs: number): Promise<GititServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-gitit-'))
  let forget = () => {}
  const stopper = instanceStopper(() => {
    forget()
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  })
  return orStop(stopper.stop, async () => {
    const repo = join(dir, 'wikidata')
    await seedRepository(repo)
    writeFileSync(join(dir, 'gitit-users'), usersFile())
    const port = await freePort()
    const conf = join(dir, 'gitit.conf')
    writeFileSync(conf, config(dir, port))
    const server = spawnServer(GITIT, ['-f', conf], {
      cwd: dir,
      // git commits as the signed-in user; HOME keeps the machine's git config out.
      env: { ...process.env, HOME: dir, GIT_CONFIG_NOSYSTEM: '1' },
      output: { stdout: true, stderr: true },
    })
    stopper.server = server.child
    forget = killOnExit(server.child)
    const origin = `http://127.0.0.1:${port}`
    await waitForHttp(`${origin}/_index`, server.child, {
      name: 'Gitit',
      timeoutMs: 30_000,
      requestTimeoutMs: 10_000,
      ready: (res) => res.status === 200,
    })
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, repo, close: stopper.stop }
  })
}
