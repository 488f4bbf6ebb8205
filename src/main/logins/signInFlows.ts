import type { BrowserContext, Page, Request } from 'playwright-core'
import { ServiceError } from '../../shared/errors'
import type { SignInState, SignInStatus } from '../../shared/appApi'
import type { StorageState } from '../../shared/trace'
import type { SiteLogins } from './siteLogins'
import { parseTotpSeed } from './siteLogins'
import { totpCode } from './signInAuto'
import {
  defaultSignInHeadless,
  launchSignInBrowser,
  siteStateOf,
  type SignInBrowser,
} from './signInBrowser'
import {
  CAPTURE_BINDING,
  captureScript,
  fillLoginForm,
  findLoginFields,
  type CapturedSubmit,
} from './signInForm'
import { watchHttpAuth, type HttpAuthWatch } from '../recorder/httpAuthWatch'
import { describeLoadFailure } from '../recorder/loadFailure'
import type { HttpAuthChallenge } from '../../shared/appApi'
import { httpUrl } from '../../shared/urls'

/** What the flow says while the site waits on HTTP authentication. */
const challengeMessage = (c: HttpAuthChallenge) =>
  `${c.host} asks for a username and password (HTTP ${c.scheme === 'digest' ? 'Digest' : 'Basic'}${c.realm ? `, realm "${c.realm}"` : ''})${c.failed ? ': the last ones were refused' : ''}. Enter them here.`

/** What the person chose to keep when the sign-in is done. */
interface SignInFinish {
  /** Keep the username and password typed in the sign-in as secrets. */
  saveCredentials: boolean
  /** A TOTP seed the person entered (Base32 or otpauth://), never read from the page. */
  totpSeed?: string | null
}

/** Values a person enters in the app to sign in where they cannot see the browser. */
interface SignInSubmit {
  username: string
  password: string
  /** The current one-time code, when the site asks one and no seed is given. */
  code?: string | null
  totpSeed?: string | null
  /** Keep the username, password and seed as secrets once signed in. */
  saveCredentials: boolean
}

export interface SignInFlows {
  /**
   * Opens the site in the recorder's browser (headed when a display exists) for the person to
   * sign in: at `url`, or the site of `host` (its saved sign-in page, else its origin). Errors:
   * 400 `invalid_input` (neither or a bad URL), 503 `chromium_not_found`, 500 `recording_failed`.
   */
  start(tenant: string, target: { host?: string; url?: string }): Promise<SignInState>
  /** The flow's state; 404 `not_found` for an unknown id or another workspace's flow. */
  get(tenant: string, signInId: string): SignInState
  /** Signs in with values the person entered in the app (the headless web UI's path). */
  submit(tenant: string, signInId: string, values: SignInSubmit): Promise<SignInState>
  /**
   * Saves the login (the storage state now, if not saved yet) and, as chosen, the typed username
   * and password and a TOTP seed; closes the browser. 409 `conflict` when the flow has ended.
   */
  finish(tenant: string, signInId: string, choice: SignInFinish): Promise<SignInState>
  /**
   * Answers the site's HTTP authentication challenge (Basic, Digest) with the
   * person's username and password; once the site accepts them they are saved as its login
   * (sealed: 503 `unavailable` while the vault is locked) and the flow ends `saved`, its browser
   * closed. A refusal leaves it `open` with the challenge `failed`. 409 `conflict` when the flow
   * ended or the site asks no credentials.
   */
  answerAuth(
    tenant: string,
    signInId: string,
    login: { username: string; password: string },
  ): Promise<SignInState>
  /** Ends the flow without saving anything more; typed values are dropped. */
  cancel(tenant: string, signInId: string): Promise<SignInState>
  /** Settles when the flow is signed in or has ended. */
  settled(signInId: string): Promise<SignInState>
  /** The flow's current page (tests drive it as a person would; the CLI shows nothing of it). */
  page(signInId: string): Page | null
  /**
   * The browser of a flow the person still signs in with, for the Logins view's live picture of
   * it (a headless browser, where no display exists); null once the flow is signed in or ended.
   */
  castTarget(signInId: string): { context: BrowserContext; page: Page } | null
  closeAll(): Promise<void>
}

export interface SignInFlowsDeps {
  logins: Pick<SiteLogins, 'save' | 'get'>
  chromiumPath: () => string
  clock: () => number
  ulid: () => string
  /** The origin of a site's tools (`https://host`), to start a sign-in given only a host. */
  siteOrigin?: (host: string) => string | null
  /** Default: headless only where no display exists. */
  headless?: boolean
  /** A flow nobody finished ends after this long, ms; default 30 minutes (the link's life). */
  maxMs?: number
  /**
   * The guard proxy settings of the sign-in window of `tenant` for `siteHosts` (
   * every request connects through it, checked on the address connected; the engine's
   * `signInSiteCheck`). `onDenied` hears each refused destination (`host:port`, why); `release`
   * once the window is closed. Absent: the window connects directly.
   */
  guardFor?: (
    tenant: string,
    siteHosts: string[],
    onDenied: (host: string, reason: string) => void,
  ) => Promise<{ proxy: { server: string; username: string; password: string }; release(): void }>
}

interface Flow {
  state: SignInState
  tenant: string
  browser: SignInBrowser
  page: Page
  /** Typed values, in this process's memory only, until saved or the flow ends. */
  captured: { username: string | null; password: string; url: string } | null
  /** The site's storage state last saved, for a `finish` after the window was closed. */
  lastState: StorageState | null
  waiters: Array<(state: SignInState) => void>
  timer: NodeJS.Timeout
  /** The site's HTTP authentication challenges and their answers. */
  auth: HttpAuthWatch | null
  /** Why the guard refused each destination (`host:port`) of this window. */
  denials: Map<string, string>
}

const ENDED: SignInStatus[] = ['saved', 'cancelled', 'failed']
/** The person still works in the flow's browser. */
const SIGNING_IN: SignInStatus[] = ['open', 'signing_in']

/** A URL's `host:port` as the guard proxy names a destination (default ports spelled out). */
const destinationOf = (url: string): string => {
  if (!URL.canParse(url)) return url
  const u = new URL(url)
  return `${u.hostname}:${u.port || (u.protocol === 'https:' ? 443 : 80)}`
}
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/

/**
 * Creates the interactive sign-in flows (UI `logins.signIn`, `sitecall login
 * HOST`, one-time links). The person signs in in a real browser; the flow notices when the site
 * stops showing a login form after a password was submitted, and saves the storage state sealed
 * in the vault. The username and password come from the form through {@link captureScript}'s
 * binding into this flow's memory (not the recorder, so never a trace, log or run) and are kept
 * as secrets only if the person chooses so in `finish`.
 */
export function createSignInFlows(deps: SignInFlowsDeps): SignInFlows {
  const flows = new Map<string, Flow>()
  const snapshot = (flow: Flow): SignInState => ({
    ...flow.state,
    canSaveCredentials: !!flow.captured,
    username: flow.captured?.username ?? null,
  })
  const update = (flow: Flow, status: SignInStatus, message: string) => {
    flow.state = { ...flow.state, status, message, updatedAt: deps.clock() }
    if (status !== 'open' && status !== 'signing_in')
      for (const wake of flow.waiters.splice(0)) wake(snapshot(flow))
  }
  const find = (tenant: string | null, id: string): Flow => {
    const flow = flows.get(id)
    if (!flow || (tenant !== null && flow.tenant !== tenant))
      throw new ServiceError('not_found', `No sign-in ${id}.`)
    return flow
  }
  const end = async (flow: Flow, status: SignInStatus, message: string) => {
    clearTimeout(flow.timer)
    flow.auth?.dispose()
    flow.captured = null
    if (!ENDED.includes(flow.state.status)) update(flow, status, message)
    flow.lastState = null
    // The state stays readable a while (a page polling it), then the flow is forgotten.
    setTimeout(() => flows.delete(flow.state.signInId), 10 * 60_000).unref()
    await flow.browser.close()
  }

  /**
   * Closes a signed-in flow's browser: the login is saved and the typed values
   * are in memory, so only the choice of what to keep is left, and that is made in the app.
   */
  const closeWindow = (flow: Flow) => void flow.browser.close()

  /** Saves what the browser holds for the site now; false when it holds nothing. */
  const saveState = async (flow: Flow, extras: Parameters<SiteLogins['save']>[3] = {}) => {
    const state = (await siteStateOf(flow.browser.context, flow.state.host)) ?? flow.lastState
    if (!state) return false
    flow.lastState = state
    await deps.logins.save(flow.tenant, flow.state.host, state, {
      ...(flow.captured ? { loginUrl: flow.captured.url } : {}),
      ...extras,
    })
    return true
  }

  /** After each page load: a password was submitted and no login form is left: signed in. */
  const check = async (flow: Flow, page: Page) => {
    if (flow.state.status !== 'open' || !flow.captured || page.isClosed()) return
    const fields = await findLoginFields(page)
    if (fields.password || fields.otp || flow.state.status !== 'open') return
    try {
      if (!(await saveState(flow))) return
      update(flow, 'signed_in', `Signed in to ${flow.state.host}: the login is saved.`)
      closeWindow(flow)
    } catch (error) {
      update(flow, 'open', `Signed in, but the login was not saved: ${(error as Error).message}`)
    }
  }

  /**
   * A page the person would be sent to that the guard refused ends the sign-in with the reason
   *, in the app rather than as the proxy's refusal in the window.
   */
  const refusedNavigation = (flow: Flow, page: Page, request: Request) => {
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return
    const reason = flow.denials.get(destinationOf(request.url()))
    if (!reason || ENDED.includes(flow.state.status)) return
    void end(flow, 'failed', `The sign-in was stopped: ${reason}`)
  }

  const watch = (flow: Flow, context: BrowserContext) => {
    const onPage = (page: Page) => {
      flow.page = page
      page.on('load', () => void check(flow, page))
      // Plain HTTP: the proxy answers 403; a tunnel (HTTPS): the request fails.
      page.on('response', (response) => {
        if (response.status() === 403) refusedNavigation(flow, page, response.request())
      })
      page.on('requestfailed', (request) => refusedNavigation(flow, page, request))
    }
    context.on('page', onPage)
    for (const page of context.pages()) onPage(page)
    context.once('close', () => {
      clearTimeout(flow.timer)
      if (flow.state.status === 'open' || flow.state.status === 'signing_in')
        update(flow, 'cancelled', 'The browser was closed before the sign-in finished.')
    })
  }

  function resolveUrl(target: { host?: string; url?: string }, tenant: string) {
    if (target.url) {
      const url = httpUrl(target.url)
      if (url) return { url: url.href, host: url.host }
      throw new ServiceError('invalid_input', '"url" must be an http(s) URL.')
    }
    const host = target.host?.trim().toLowerCase()
    if (!host || /[/\s?#@]/.test(host))
      throw new ServiceError('invalid_input', 'Give the site as "host" (host[:port]) or "url".')
    const saved = deps.logins.get(tenant, host)?.loginUrl
    const origin = deps.siteOrigin?.(host) ?? `${LOOPBACK.test(host) ? 'http' : 'https'}://${host}`
    return { url: saved ?? `${origin}/`, host }
  }

  const answerAuth: SignInFlows['answerAuth'] = async (tenant, id, login) => {
    const flow = find(tenant, id)
    if (flow.state.status !== 'open')
      throw new ServiceError('conflict', `The sign-in is ${flow.state.status}.`)
    const challenge = flow.auth?.pending()
    if (!flow.auth || !challenge)
      throw new ServiceError('conflict', `${flow.state.host} asks no username and password now.`)
    update(flow, 'signing_in', `Signing in to ${flow.state.host}…`)
    await flow.auth.answer(flow.page, login)
    const again = flow.auth.pending()
    if (again) {
      update(flow, 'open', challengeMessage(again))
      return snapshot(flow)
    }
    const state = (await siteStateOf(flow.browser.context, flow.state.host)) ?? {
      cookies: [],
      origins: [],
    }
    try {
      await deps.logins.save(flow.tenant, flow.state.host, state, {
        credentials: login,
        loginUrl: challenge.url,
      })
    } catch (error) {
      update(flow, 'open', `Signed in, but the login was not saved: ${(error as Error).message}`)
      throw error
    }
    await end(flow, 'saved', `Signed in to ${flow.state.host}: the login is saved.`)
    return snapshot(flow)
  }

  return {
    async start(tenant, target) {
      const { url, host } = resolveUrl(target, tenant)
      const denials = new Map<string, string>()
      // The site, and the page it was started at (a saved sign-in page may be on another host).
      const ownHosts = [...new Set([host, new URL(url).host])]
      const guarded = await deps.guardFor?.(tenant, ownHosts, (at, why) => denials.set(at, why))
      const browser = await launchSignInBrowser(
        deps.chromiumPath(),
        deps.headless ?? defaultSignInHeadless(),
        guarded?.proxy,
      ).catch((error: unknown) => {
        guarded?.release()
        throw error
      })
      if (guarded) browser.context.once('close', () => guarded.release())
      const id = `signin_${deps.ulid()}`
      const now = deps.clock()
      const headless = deps.headless ?? defaultSignInHeadless()
      const flow: Flow = {
        tenant,
        browser,
        page: null as unknown as Page,
        captured: null,
        lastState: null,
        waiters: [],
        auth: null,
        denials,
        timer: setTimeout(
          () => void end(flow, 'cancelled', 'The sign-in was left open too long.'),
          deps.maxMs ?? 30 * 60_000,
        ),
        state: {
          signInId: id,
          host,
          url,
          status: 'open',
          message: `Sign in to ${host} in the browser ${headless ? 'shown in the app' : 'window'}.`,
          // Headless means nobody sees a window: the Logins view shows the tab in the page.
          view: headless ? 'screencast' : 'window',
          canSaveCredentials: false,
          username: null,
          sawOneTimeCode: false,
          authChallenge: null,
          startedAt: now,
          updatedAt: now,
        },
      }
      flow.timer.unref()
      try {
        await browser.context.exposeBinding(CAPTURE_BINDING, (source, payload: CapturedSubmit) => {
          if (payload?.kind === 'otp') flow.state = { ...flow.state, sawOneTimeCode: true }
          else if (payload?.kind === 'password' && typeof payload.password === 'string')
            flow.captured = {
              username: typeof payload.username === 'string' ? payload.username : null,
              password: payload.password,
              url: typeof payload.url === 'string' ? payload.url : url,
            }
        })
        await browser.context.addInitScript(captureScript())
        flow.auth = watchHttpAuth(
          browser.context,
          () => true,
          (challenge) => {
            flow.state = {
              ...flow.state,
              authChallenge: challenge,
              ...(challenge ? { message: challengeMessage(challenge) } : {}),
              updatedAt: deps.clock(),
            }
          },
        )
        watch(flow, browser.context)
        const page = browser.context.pages()[0] ?? (await browser.context.newPage())
        flow.page = page
        flows.set(id, flow)
        // The answer's status, or why there was none. The guard proxy answers a plain-HTTP site
        // it cannot reach with a status of its own (59x), which describeLoadFailure reads.
        const loaded: number | Error | null = await page
          .goto(url, { waitUntil: 'load', timeout: 30_000 })
          .then(
            (response) => response?.status() ?? null,
            (error: Error) => error,
          )
        const problem = loaded === null ? null : describeLoadFailure(url, loaded)
        // A Basic or Digest challenge fails the load until it is answered: it says so itself.
        if (problem && !flow.auth?.pending() && !ENDED.includes(flow.state.status)) {
          // Nothing of the site to sign in to: ended at once, rather than a blank browser.
          if (problem.unreachable) await end(flow, 'failed', problem.message)
          else if (loaded instanceof Error) flow.state = { ...flow.state, message: problem.message }
        }
      } catch (error) {
        await end(flow, 'failed', (error as Error).message)
        throw error
      }
      return snapshot(flow)
    },

    get: (tenant, id) => snapshot(find(tenant, id)),

    answerAuth,

    async submit(tenant, id, values) {
      const flow = find(tenant, id)
      if (flow.state.status !== 'open')
        throw new ServiceError('conflict', `The sign-in is ${flow.state.status}.`)
      // A site behind HTTP authentication has no form: the values answer its challenge.
      if (flow.auth?.pending())
        return answerAuth(tenant, id, { username: values.username, password: values.password })
      const seed = values.totpSeed ? parseTotpSeed(values.totpSeed) : null
      const code = values.code?.trim() || null
      update(flow, 'signing_in', `Signing in to ${flow.state.host}…`)
      try {
        const outcome = await fillLoginForm(flow.page, {
          username: values.username,
          password: values.password,
          totp: seed ? () => totpCode(seed, deps.clock()) : code ? async () => code : null,
        })
        if (outcome !== 'signed_in') {
          const why = {
            no_login_form: 'The page shows no login form.',
            mfa_required: 'The site asks a one-time code: enter the current code or a TOTP seed.',
            rejected: 'The site did not accept these values.',
          }[outcome]
          if (outcome === 'mfa_required') flow.state = { ...flow.state, sawOneTimeCode: true }
          update(flow, 'open', why)
          return snapshot(flow)
        }
        flow.captured = {
          username: values.username,
          password: values.password,
          url: flow.state.url,
        }
        const saved = await saveState(flow, {
          loginUrl: flow.state.url,
          ...(values.saveCredentials
            ? { credentials: { username: values.username, password: values.password } }
            : {}),
          ...(values.saveCredentials && seed ? { totpSeed: seed } : {}),
        })
        if (!saved) {
          update(flow, 'open', 'Signed in, but the site kept no cookies or storage to save.')
          return snapshot(flow)
        }
        update(flow, 'signed_in', `Signed in to ${flow.state.host}: the login is saved.`)
        if (values.saveCredentials) await end(flow, 'saved', 'The login and its secrets are saved.')
        else closeWindow(flow)
        return snapshot(flow)
      } catch (error) {
        update(flow, 'open', `The sign-in did not finish: ${(error as Error).message}`)
        throw error
      }
    },

    async finish(tenant, id, choice) {
      const flow = find(tenant, id)
      if (ENDED.includes(flow.state.status))
        throw new ServiceError('conflict', `The sign-in is ${flow.state.status}.`)
      const seed = choice.totpSeed ? parseTotpSeed(choice.totpSeed) : null
      const credentials =
        choice.saveCredentials && flow.captured
          ? { username: flow.captured.username ?? '', password: flow.captured.password }
          : null
      if (credentials && !credentials.username)
        throw new ServiceError(
          'invalid_input',
          'No username was typed with the password: only the login can be saved.',
        )
      const saved = await saveState(flow, {
        ...(credentials ? { credentials } : {}),
        ...(seed ? { totpSeed: seed } : {}),
      })
      if (!saved && flow.state.status !== 'signed_in')
        throw new ServiceError(
          'conflict',
          `The browser holds no login of ${flow.state.host} yet: sign in first.`,
        )
      await end(flow, 'saved', 'The login is saved.')
      return snapshot(flow)
    },

    async cancel(tenant, id) {
      const flow = find(tenant, id)
      await end(flow, 'cancelled', 'The sign-in was cancelled.')
      return snapshot(flow)
    },

    settled(id) {
      const flow = find(null, id)
      if (flow.state.status !== 'open' && flow.state.status !== 'signing_in')
        return Promise.resolve(snapshot(flow))
      return new Promise((resolve) => flow.waiters.push(resolve))
    },

    page: (id) => flows.get(id)?.page ?? null,

    castTarget(id) {
      const flow = flows.get(id)
      if (!flow || !SIGNING_IN.includes(flow.state.status) || flow.page.isClosed()) return null
      return { context: flow.browser.context, page: flow.page }
    },

    async closeAll() {
      await Promise.all([...flows.values()].map((f) => end(f, 'cancelled', 'Sitecall stopped.')))
    },
  }
}
