/**
 * Starts a private ikiwiki: a temp dir with its own setup file, a srcdir that is a git repository
 * holding the seeded history, the compiled wiki (destdir) with the CGI wrapper ikiwiki builds
 * (with gcc) into it, and the users' database; served on a free 127.0.0.1 port by
 * `cgiServer.ts` (static files plus the CGI at /ikiwiki.cgi), which leads the process group the
 * CGI runs in. Nothing of the system's config is used.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort, instanceStopper, orStop, spawnServer, waitForHttp } from '../childProcess'
import { ADD_USER_SCRIPT, CGI_PATH, MAIN_USER, OTHER_USER, setupFile, writeHistory } from './seed'

const IKIWIKI = '/usr/bin/ikiwiki'
/** The repository's root: `--import tsx` resolves from here. */
const REPO = fileURLToPath(new URL('../../..', import.meta.url))
const CGI_SERVER = fileURLToPath(new URL('./cgiServer.ts', import.meta.url))

/** A running ikiwiki. */
export interface IkiwikiServer {
  origin: string
  /** The instance's temp dir (`wiki.setup`, `src/`, `www/`). */
  dir: string
  close(): Promise<void>
}

/** Why ikiwiki cannot run here (naming the apt packages), or null. */
export function ikiwikiUnavailable(): string | null {
  const install =
    'apt-get install ikiwiki libcgi-formbuilder-perl libcgi-session-perl libtimedate-perl gcc git'
  if (!existsSync(IKIWIKI)) return `ikiwiki is not installed: ${install}`
  for (const module of ['CGI/FormBuilder.pm', 'CGI/Session.pm', 'Date/Parse.pm']) {
    if (!existsSync(join('/usr/share/perl5', module)))
      return `the Perl module ${module} is missing: ${install}`
  }
  if (!existsSync('/usr/bin/gcc') && !existsSync('/usr/bin/cc'))
    return `no C compiler for ikiwiki's CGI wrapper: ${install}`
  if (!existsSync('/usr/bin/git')) return `git is not installed: ${install}`
  return null
}

/**
 * Builds a fresh instance and serves it; stops by itself after `lifetimeMs`. Rejects, after
 * removing everything, when a step fails.
 */
export async function startIkiwikiServer(lifetimeMs: number): Promise<IkiwikiServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-ikiwiki-'))
  const stopper = instanceStopper(() =>
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 }),
  )
  return orStop(stopper.stop, async () => {
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const setup = join(dir, 'wiki.setup')
    writeFileSync(setup, setupFile(dir, origin))
    writeHistory(join(dir, 'src'))
    mkdirSync(join(dir, 'www'))
    const run = (args: string[]) =>
      execFileSync(args[0]!, args.slice(1), { cwd: dir, stdio: 'pipe', timeout: 120_000 })
    // The first build writes the pages and the CGI wrapper. Recent changes only lists the seeded
    // commits from the second build on (the change pages appear after the first build rendered
    // the recentchanges page), so a rebuild follows.
    run([IKIWIKI, '--setup', setup])
    writeFileSync(join(dir, 'adduser.pl'), ADD_USER_SCRIPT)
    for (const user of [MAIN_USER, OTHER_USER])
      run(['perl', join(dir, 'adduser.pl'), setup, user.name, user.password, user.email])
    run([IKIWIKI, '--setup', setup, '--rebuild'])
    const cgi = join(dir, 'www', 'ikiwiki.cgi')
    const server = spawnServer(
      process.execPath,
      ['--import', 'tsx', CGI_SERVER, String(port), join(dir, 'www'), CGI_PATH, cgi],
      { cwd: REPO, output: { stderr: true } },
    )
    stopper.server = server.child
    await waitForHttp(`${origin}/`, server.child, {
      name: 'ikiwiki CGI server',
      timeoutMs: 30_000,
      redirect: 'manual',
    })
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
