import type { BrowserContext, Page, Request } from 'playwright-core'
import { ServiceError } from '../../shared/errors'
import type { HttpAuthChallenge, SignInState, SignInStatus } from '../../shared/appApi'
import type { StorageState } from '../../shared/trace'
import type { SiteLogins } from './siteLogins'
import { siteStateOf, type SignInBrowser } from './signInBrowser'
import { findLoginFields } from './signInForm'
import type { HttpAuthWatch } from '../recorder/httpAuthWatch'

/** One sign-in flow: its state, its browser, and what the person typed in it. */
export interface Flow {
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

/** The flows of one `createSignInFlows`, with what their steps need of its deps. */
export interface FlowBook {
  flows: Map<string, Flow>
  clock: () => number
  logins: Pick<SiteLogins, 'save' | 'get'>
}

/** Statuses a flow never leaves. */
export const ENDED: SignInStatus[] = ['saved', 'cancelled', 'failed']
/** The person still works in the flow's browser. */
export const SIGNING_IN: SignInStatus[] = ['open', 'signing_in']

/** What the flow says while the site waits on HTTP authentication. */
export const challengeMessage = (c: HttpAuthChallenge) =>
  `${c.host} asks for a username and password (HTTP ${c.scheme === 'digest' ? 'Digest' : 'Basic'}${c.realm ? `, realm "${c.realm}"` : ''})${c.failed ? ': the last ones were refused' : ''}. Enter them here.`

/** A URL's `host:port` as the guard proxy names a destination (default ports spelled out). */
const destinationOf = (url: string): string => {
  if (!URL.canParse(url)) return url
  const u = new URL(url)
  return `${u.hostname}:${u.port || (u.protocol === 'https:' ? 443 : 80)}`
}

/** The flow's state as callers see it: whether typed values could be saved, and the username. */
export const snapshot = (flow: Flow): SignInState => ({
  ...flow.state,
  canSaveCredentials: !!flow.captured,
  username: flow.captured?.username ?? null,
})

/** Moves the flow to `status`; a status past signing in wakes whoever waits on `settled`. */
export function update(book: FlowBook, flow: Flow, status: SignInStatus, message: string): void {
  flow.state = { ...flow.state, status, message, updatedAt: book.clock() }
  if (status !== 'open' && status !== 'signing_in')
    for (const wake of flow.waiters.splice(0)) wake(snapshot(flow))
}

/** The flow `id` of `tenant` (null: any); 404 `not_found` otherwise. */
export function findFlow(book: FlowBook, tenant: string | null, id: string): Flow {
  const flow = book.flows.get(id)
  if (!flow || (tenant !== null && flow.tenant !== tenant))
    throw new ServiceError('not_found', `No sign-in ${id}.`)
  return flow
}

/**
 * Ends the flow with `status` (unless it has ended already), drops typed values and closes its
 * browser; the state stays readable ten minutes, then the flow is forgotten.
 */
export async function endFlow(
  book: FlowBook,
  flow: Flow,
  status: SignInStatus,
  message: string,
): Promise<void> {
  clearTimeout(flow.timer)
  flow.auth?.dispose()
  flow.captured = null
  if (!ENDED.includes(flow.state.status)) update(book, flow, status, message)
  flow.lastState = null
  // The state stays readable a while (a page polling it), then the flow is forgotten.
  setTimeout(() => book.flows.delete(flow.state.signInId), 10 * 60_000).unref()
  await flow.browser.close()
}

/**
 * Closes a signed-in flow's browser: the login is saved and the typed values
 * are in memory, so only the choice of what to keep is left, and that is made in the app.
 */
export const closeWindow = (flow: Flow) => void flow.browser.close()

/** Saves what the browser holds for the site now; false when it holds nothing. */
export async function saveState(
  book: FlowBook,
  flow: Flow,
  extras: Parameters<SiteLogins['save']>[3] = {},
): Promise<boolean> {
  const state = (await siteStateOf(flow.browser.context, flow.state.host)) ?? flow.lastState
  if (!state) return false
  flow.lastState = state
  await book.logins.save(flow.tenant, flow.state.host, state, {
    ...(flow.captured ? { loginUrl: flow.captured.url } : {}),
    ...extras,
  })
  return true
}

/** After each page load: a password was submitted and no login form is left: signed in. */
async function checkSignedIn(book: FlowBook, flow: Flow, page: Page): Promise<void> {
  if (flow.state.status !== 'open' || !flow.captured || page.isClosed()) return
  const fields = await findLoginFields(page)
  if (fields.password || fields.otp || flow.state.status !== 'open') return
  try {
    if (!(await saveState(book, flow))) return
    update(book, flow, 'signed_in', `Signed in to ${flow.state.host}: the login is saved.`)
    closeWindow(flow)
  } catch (error) {
    update(
      book,
      flow,
      'open',
      `Signed in, but the login was not saved: ${(error as Error).message}`,
    )
  }
}

/**
 * A page the person would be sent to that the guard refused ends the sign-in with the reason
 *, in the app rather than as the proxy's refusal in the window.
 */
function refusedNavigation(book: FlowBook, flow: Flow, page: Page, request: Request): void {
  if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return
  const reason = flow.denials.get(destinationOf(request.url()))
  if (!reason || ENDED.includes(flow.state.status)) return
  void endFlow(book, flow, 'failed', `The sign-in was stopped: ${reason}`)
}

/**
 * Follows the flow's browser: each page's loads (signed in yet?) and refused navigations, and
 * the window closing before the sign-in finished (cancelled).
 */
export function watchFlow(book: FlowBook, flow: Flow, context: BrowserContext): void {
  const onPage = (page: Page) => {
    flow.page = page
    page.on('load', () => void checkSignedIn(book, flow, page))
    // Plain HTTP: the proxy answers 403; a tunnel (HTTPS): the request fails.
    page.on('response', (response) => {
      if (response.status() === 403) refusedNavigation(book, flow, page, response.request())
    })
    page.on('requestfailed', (request) => refusedNavigation(book, flow, page, request))
  }
  context.on('page', onPage)
  for (const page of context.pages()) onPage(page)
  context.once('close', () => {
    clearTimeout(flow.timer)
    if (flow.state.status === 'open' || flow.state.status === 'signing_in')
      update(book, flow, 'cancelled', 'The browser was closed before the sign-in finished.')
  })
}
