import type { BrowserContext, Page } from 'playwright-core'
import { ServiceError } from '../../shared/errors'
import type { SignInState } from '../../shared/appApi'
import type { SiteLogins } from './siteLogins'
import { parseTotpSeed } from './siteLogins'
import { totpCode } from './signInAuto'
import { defaultSignInHeadless, launchSignInBrowser, siteStateOf } from './signInBrowser'
import { CAPTURE_BINDING, captureScript, fillLoginForm, type CapturedSubmit } from './signInForm'
import { watchHttpAuth } from '../recorder/httpAuthWatch'
import { describeLoadFailure } from '../recorder/loadFailure'
import { httpUrl } from '../../shared/urls'
import {
  challengeMessage,
  closeWindow,
  ENDED,
  endFlow,
  findFlow,
  saveState,
  SIGNING_IN,
  snapshot,
  update,
  watchFlow,
  type Flow,
  type FlowBook,
} from './signInFlow'

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

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/

/** The flows of one `createSignInFlows` and its deps. */
interface SignInContext extends FlowBook {
  deps: SignInFlowsDeps
}

/**
 * Creates the interactive sign-in flows (UI `logins.signIn`, `sitecall login
 * HOST`, one-time links). The person signs in in a real browser; the flow notices when the site
 * stops showing a login form after a password was submitted, and saves the storage state sealed
 * in the vault. The username and password come from the form through {@link captureScript}'s
 * binding into this flow's memory (not the recorder, so never a trace, log or run) and are kept
 * as secrets only if the person chooses so in `finish`.
 */
export function createSignInFlows(deps: SignInFlowsDeps): SignInFlows {
  const ctx: SignInContext = { deps, flows: new Map(), clock: deps.clock, logins: deps.logins }
  const { flows } = ctx
  return {
    start: (tenant, target) => startFlow(ctx, tenant, target),
    get: (tenant, id) => snapshot(findFlow(ctx, tenant, id)),
    answerAuth: (tenant, id, login) => answerAuth(ctx, tenant, id, login),
    submit: (tenant, id, values) => submitValues(ctx, tenant, id, values),
    finish: (tenant, id, choice) => finishFlow(ctx, tenant, id, choice),
    async cancel(tenant, id) {
      const flow = findFlow(ctx, tenant, id)
      await endFlow(ctx, flow, 'cancelled', 'The sign-in was cancelled.')
      return snapshot(flow)
    },
    settled(id) {
      const flow = findFlow(ctx, null, id)
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
      await Promise.all(
        [...flows.values()].map((f) => endFlow(ctx, f, 'cancelled', 'Sitecall stopped.')),
      )
    },
  }
}

/**
 * The page a sign-in opens and its site: `url` (http(s)), or `host`'s saved sign-in page, else
 * its tools' origin, else `https://host/` (`http` for loopback). 400 `invalid_input` otherwise.
 */
function resolveUrl(
  ctx: SignInContext,
  target: { host?: string; url?: string },
  tenant: string,
): { url: string; host: string } {
  if (target.url) {
    const url = httpUrl(target.url)
    if (url) return { url: url.href, host: url.host }
    throw new ServiceError('invalid_input', '"url" must be an http(s) URL.')
  }
  const host = target.host?.trim().toLowerCase()
  if (!host || /[/\s?#@]/.test(host))
    throw new ServiceError('invalid_input', 'Give the site as "host" (host[:port]) or "url".')
  const saved = ctx.deps.logins.get(tenant, host)?.loginUrl
  const origin =
    ctx.deps.siteOrigin?.(host) ?? `${LOOPBACK.test(host) ? 'http' : 'https'}://${host}`
  return { url: saved ?? `${origin}/`, host }
}

/** `SignInFlows.answerAuth`: answers the site's HTTP authentication and saves the login. */
async function answerAuth(
  ctx: SignInContext,
  tenant: string,
  id: string,
  login: { username: string; password: string },
): Promise<SignInState> {
  const flow = findFlow(ctx, tenant, id)
  if (flow.state.status !== 'open')
    throw new ServiceError('conflict', `The sign-in is ${flow.state.status}.`)
  const challenge = flow.auth?.pending()
  if (!flow.auth || !challenge)
    throw new ServiceError('conflict', `${flow.state.host} asks no username and password now.`)
  update(ctx, flow, 'signing_in', `Signing in to ${flow.state.host}…`)
  await flow.auth.answer(flow.page, login)
  const again = flow.auth.pending()
  if (again) {
    update(ctx, flow, 'open', challengeMessage(again))
    return snapshot(flow)
  }
  const state = (await siteStateOf(flow.browser.context, flow.state.host)) ?? {
    cookies: [],
    origins: [],
  }
  try {
    await ctx.deps.logins.save(flow.tenant, flow.state.host, state, {
      credentials: login,
      loginUrl: challenge.url,
    })
  } catch (error) {
    update(ctx, flow, 'open', `Signed in, but the login was not saved: ${(error as Error).message}`)
    throw error
  }
  await endFlow(ctx, flow, 'saved', `Signed in to ${flow.state.host}: the login is saved.`)
  return snapshot(flow)
}

/**
 * Launches the flow's browser (through the guard proxy when there is one, released when the
 * window closes) and makes the flow record, its give-up timer running.
 */
async function openFlow(
  ctx: SignInContext,
  tenant: string,
  url: string,
  host: string,
): Promise<Flow> {
  const { deps } = ctx
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
      () => void endFlow(ctx, flow, 'cancelled', 'The sign-in was left open too long.'),
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
  return flow
}

/**
 * Listens in the flow's browser: typed passwords and one-time codes (through the capture
 * binding) and the site's HTTP authentication challenges.
 */
async function listenIn(
  ctx: SignInContext,
  flow: Flow,
  context: BrowserContext,
  url: string,
): Promise<void> {
  await context.exposeBinding(CAPTURE_BINDING, (source, payload: CapturedSubmit) => {
    if (payload?.kind === 'otp') flow.state = { ...flow.state, sawOneTimeCode: true }
    else if (payload?.kind === 'password' && typeof payload.password === 'string')
      flow.captured = {
        username: typeof payload.username === 'string' ? payload.username : null,
        password: payload.password,
        url: typeof payload.url === 'string' ? payload.url : url,
      }
  })
  await context.addInitScript(captureScript())
  flow.auth = watchHttpAuth(
    context,
    () => true,
    (challenge) => {
      flow.state = {
        ...flow.state,
        authChallenge: challenge,
        ...(challenge ? { message: challengeMessage(challenge) } : {}),
        updatedAt: ctx.clock(),
      }
    },
  )
}

/**
 * `SignInFlows.start`: opens the browser, listens in it and loads the sign-in page; a site
 * that cannot be reached ends the flow `failed` at once.
 */
async function startFlow(
  ctx: SignInContext,
  tenant: string,
  target: { host?: string; url?: string },
): Promise<SignInState> {
  const { url, host } = resolveUrl(ctx, target, tenant)
  const flow = await openFlow(ctx, tenant, url, host)
  const { browser } = flow
  try {
    await listenIn(ctx, flow, browser.context, url)
    watchFlow(ctx, flow, browser.context)
    const page = browser.context.pages()[0] ?? (await browser.context.newPage())
    flow.page = page
    ctx.flows.set(flow.state.signInId, flow)
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
      if (problem.unreachable) await endFlow(ctx, flow, 'failed', problem.message)
      else if (loaded instanceof Error) flow.state = { ...flow.state, message: problem.message }
    }
  } catch (error) {
    await endFlow(ctx, flow, 'failed', (error as Error).message)
    throw error
  }
  return snapshot(flow)
}

/**
 * `SignInFlows.submit`: fills the site's login form with the values the person entered in the
 * app (or answers its HTTP authentication) and saves the login once signed in.
 */
async function submitValues(
  ctx: SignInContext,
  tenant: string,
  id: string,
  values: SignInSubmit,
): Promise<SignInState> {
  const flow = findFlow(ctx, tenant, id)
  if (flow.state.status !== 'open')
    throw new ServiceError('conflict', `The sign-in is ${flow.state.status}.`)
  // A site behind HTTP authentication has no form: the values answer its challenge.
  if (flow.auth?.pending())
    return answerAuth(ctx, tenant, id, { username: values.username, password: values.password })
  const seed = values.totpSeed ? parseTotpSeed(values.totpSeed) : null
  const code = values.code?.trim() || null
  update(ctx, flow, 'signing_in', `Signing in to ${flow.state.host}…`)
  try {
    const outcome = await fillLoginForm(flow.page, {
      username: values.username,
      password: values.password,
      totp: seed ? () => totpCode(seed, ctx.clock()) : code ? async () => code : null,
    })
    if (outcome !== 'signed_in') {
      const why = {
        no_login_form: 'The page shows no login form.',
        mfa_required: 'The site asks a one-time code: enter the current code or a TOTP seed.',
        rejected: 'The site did not accept these values.',
      }[outcome]
      if (outcome === 'mfa_required') flow.state = { ...flow.state, sawOneTimeCode: true }
      update(ctx, flow, 'open', why)
      return snapshot(flow)
    }
    flow.captured = {
      username: values.username,
      password: values.password,
      url: flow.state.url,
    }
    const saved = await saveState(ctx, flow, {
      loginUrl: flow.state.url,
      ...(values.saveCredentials
        ? { credentials: { username: values.username, password: values.password } }
        : {}),
      ...(values.saveCredentials && seed ? { totpSeed: seed } : {}),
    })
    if (!saved) {
      update(ctx, flow, 'open', 'Signed in, but the site kept no cookies or storage to save.')
      return snapshot(flow)
    }
    update(ctx, flow, 'signed_in', `Signed in to ${flow.state.host}: the login is saved.`)
    if (values.saveCredentials)
      await endFlow(ctx, flow, 'saved', 'The login and its secrets are saved.')
    else closeWindow(flow)
    return snapshot(flow)
  } catch (error) {
    update(ctx, flow, 'open', `The sign-in did not finish: ${(error as Error).message}`)
    throw error
  }
}

/** `SignInFlows.finish`: saves the login and what the person chose to keep, then ends the flow. */
async function finishFlow(
  ctx: SignInContext,
  tenant: string,
  id: string,
  choice: SignInFinish,
): Promise<SignInState> {
  const flow = findFlow(ctx, tenant, id)
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
  const saved = await saveState(ctx, flow, {
    ...(credentials ? { credentials } : {}),
    ...(seed ? { totpSeed: seed } : {}),
  })
  if (!saved && flow.state.status !== 'signed_in')
    throw new ServiceError(
      'conflict',
      `The browser holds no login of ${flow.state.host} yet: sign in first.`,
    )
  await endFlow(ctx, flow, 'saved', 'The login is saved.')
  return snapshot(flow)
}
