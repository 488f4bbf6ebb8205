import type { FastifyInstance, FastifyReply } from 'fastify'
import { ServiceError } from '../../../shared/errors'
import type { SignInFlows } from '../../logins/signInFlows'
import type { SignInLinks } from '../../logins/signInLinks'
import {
  SIGN_IN_FINISH_BODY_SCHEMA,
  SIGN_IN_SUBMIT_BODY_SCHEMA,
} from '../../../shared/signInBodies'
import { routeSchema, type RouteDoc } from '../../surface/openapi/routeSchema'
import { validBody } from '../routeValidation'

export interface SignInRouteDeps {
  links: SignInLinks
  flows: SignInFlows
}

const TOKEN = /^[A-Za-z0-9_-]{16,100}$/

/** The contract of a one-time link's route: public, the token in the path is the capability. */
const signInRoute = (summary: string, more: Partial<RouteDoc> = {}) =>
  routeSchema({
    summary,
    tag: 'sign-in',
    auth: 'public',
    responses: { '200': { description: "The sign-in flow's state (JSON).", schema: {} } },
    errors: ['request_closed'],
    ...more,
  })

/** No caching and no Referer: the URL itself is the capability (a one-time link's token). */
const private_ = (reply: FastifyReply) =>
  reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer')

/**
 * The one-time sign-in links of runs (interface.md "Authentication" 7, "Logins", run `signIn.url`):
 * `GET /signin/<token>` uses the link once, starts the sign-in flow of its site and answers a
 * page that shows the flow's progress (for the headless web UI it also takes the username,
 * password and code, since the person cannot see a headless browser). The page reads and drives
 * its flow under the same token (`/state`, `/submit`, `/finish`, `/decline`) for the link's 30
 * minutes. Opening a used, declined, expired or unknown link answers `409 request_closed`.
 */
export function registerSignInRoutes(app: FastifyInstance, deps: SignInRouteDeps): void {
  const tokenOf = (params: unknown): string => {
    const token = (params as { token?: string }).token ?? ''
    if (!TOKEN.test(token))
      throw new ServiceError('request_closed', 'This sign-in link is unknown.')
    return token
  }
  const flowOf = (token: string) => {
    const link = deps.links.opened(token)
    if (!link.signInId) throw new ServiceError('request_closed', 'This sign-in did not start.')
    return { tenant: link.tenant, signInId: link.signInId }
  }

  const page = {
    '200': { description: 'The sign-in page.', contentType: 'text/html', schema: {} },
  }
  app.get(
    '/signin/:token',
    { schema: signInRoute('Open a one-time sign-in link: its page.', { responses: page }) },
    async (request, reply) => {
      const token = tokenOf(request.params)
      const link = deps.links.use(token)
      const state = await deps.flows.start(link.tenant, {
        host: link.host,
        ...(link.startUrl ? { url: link.startUrl } : {}),
      })
      deps.links.attach(token, state.signInId)
      return private_(reply).type('text/html; charset=utf-8').send(signInPage(link.host))
    },
  )

  app.get(
    '/signin/:token/state',
    { schema: signInRoute("The state of the link's sign-in flow.") },
    async (request, reply) => {
      const { tenant, signInId } = flowOf(tokenOf(request.params))
      return private_(reply).send(deps.flows.get(tenant, signInId))
    },
  )

  app.post(
    '/signin/:token/submit',
    {
      schema: signInRoute('Sign in with a username, password and code (headless).', {
        body: { schema: SIGN_IN_SUBMIT_BODY_SCHEMA, required: true },
        errors: ['request_closed', 'bad_request', 'unknown_argument', 'invalid_input'],
      }),
    },
    async (request, reply) => {
      const { tenant, signInId } = flowOf(tokenOf(request.params))
      const body = validBody(request, SIGN_IN_SUBMIT_BODY_SCHEMA)
      const state = await deps.flows.submit(tenant, signInId, {
        username: body.username,
        password: body.password,
        code: body.code || null,
        totpSeed: body.totpSeed || null,
        saveCredentials: body.saveCredentials === true,
      })
      return private_(reply).send(state)
    },
  )

  app.post(
    '/signin/:token/finish',
    {
      schema: signInRoute('Finish the sign-in: keep the login as asked.', {
        body: { schema: SIGN_IN_FINISH_BODY_SCHEMA },
        errors: ['request_closed', 'bad_request', 'unknown_argument', 'invalid_input'],
      }),
    },
    async (request, reply) => {
      const { tenant, signInId } = flowOf(tokenOf(request.params))
      const body = validBody(request, SIGN_IN_FINISH_BODY_SCHEMA, {})
      const state = await deps.flows.finish(tenant, signInId, {
        saveCredentials: body.saveCredentials === true,
        totpSeed: body.totpSeed || null,
      })
      return private_(reply).send(state)
    },
  )

  app.post(
    '/signin/:token/decline',
    { schema: signInRoute('Decline the sign-in link.') },
    async (request, reply) => {
      const token = tokenOf(request.params)
      let used: { tenant: string; signInId: string } | null = null
      try {
        used = flowOf(token)
      } catch {
        // A link not opened or whose sign-in never started: it is declined unused below.
        used = null
      }
      // A used link declines by cancelling the sign-in it started; an open one is closed unused.
      if (used) return private_(reply).send(await deps.flows.cancel(used.tenant, used.signInId))
      const link = deps.links.decline(token)
      return private_(reply).send({ declined: true, host: link.host })
    },
  )
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * The app's look (src/renderer/styles.css: its colours, cards, fields and buttons, dark mode
 * following the system), inlined: the page is served without the app's bundle.
 */
const SIGN_IN_STYLE = `:root{--bg:#f6f7f9;--surface:#fff;--border:#e2e5e9;--text:#1f2328;--muted:#656d76;
--accent:#3b5bdb;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#15181e;--surface:#1d2129;--border:#353b47;
--text:#e6e8ec;--muted:#a3abb8;--accent:#3b5bdb}}
body{font:14px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:var(--text);
background:var(--bg);max-width:36rem;margin:2rem auto;padding:0 1rem}
h1{font-size:22px}
form{display:grid;gap:.5rem;margin:1rem 0;padding:18px 20px;background:var(--surface);
border:1px solid var(--border);border-radius:8px}
label{display:grid;gap:4px;font-weight:600;font-size:13px}
label:has(input[type=checkbox]){display:flex;align-items:flex-start;font-weight:400}
input{font:inherit;padding:7px 10px;border:1px solid var(--border);border-radius:6px;
background:var(--surface);color:var(--text)}
button{font:inherit;padding:7px 14px;border-radius:6px;border:1px solid var(--accent);
background:var(--accent);color:#fff;cursor:pointer}
p{color:var(--muted)}
#status{font-weight:600;color:var(--text)}`

/** The sign-in page: progress of the flow, and the forms that drive it. */
function signInPage(host: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in to ${esc(host)} – Sitecall</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<style>${SIGN_IN_STYLE}</style></head>
<body><h1>Sign in to ${esc(host)}</h1>
<p>Status: <span id="status" role="status">starting</span></p>
<p id="message"></p>
<form id="submit"><strong>Sign in from here</strong>
<p>Where the browser window is not visible, Sitecall signs in with what you enter.</p>
<label>Username <input name="username" autocomplete="off" required></label>
<label>Password <input name="password" type="password" autocomplete="off" required></label>
<label>One-time code (if asked) <input name="code" inputmode="numeric" autocomplete="off"></label>
<label>TOTP seed, Base32 or otpauth:// (optional) <input name="totpSeed" autocomplete="off"></label>
<label><input name="saveCredentials" type="checkbox" checked> Save the username, password and seed as secrets, so Sitecall can sign in again by itself</label>
<button type="submit">Sign in</button></form>
<form id="finish"><strong>Done signing in in the browser window?</strong>
<p id="offer"></p>
<label><input name="saveCredentials" type="checkbox"> Save the username and password I typed as secrets</label>
<label>TOTP seed, Base32 or otpauth:// (optional) <input name="totpSeed" autocomplete="off"></label>
<button type="submit">Save login</button></form>
<form id="decline"><button type="submit">Cancel</button></form>
<script>
const base = location.pathname.replace(/\\/$/, '')
const $ = (id) => document.getElementById(id)
let done = false
function show(s) {
  $('status').textContent = s.status
  $('message').textContent = s.message || ''
  $('offer').textContent = s.canSaveCredentials ? 'You typed a password' + (s.username ? ' for ' + s.username : '') + '.' : ''
  done = ['saved', 'cancelled', 'failed'].includes(s.status)
  for (const f of ['submit', 'finish', 'decline']) $(f).hidden = done
  // HTTP authentication has no browser form to finish: the values entered here answer it.
  if (s.authChallenge) $('finish').hidden = true
}
async function call(path, body) {
  const res = await fetch(base + path, body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {})
  const data = await res.json()
  if (!res.ok) { $('message').textContent = (data.error && data.error.message) || 'Failed.'; return null }
  if (data.status) show(data)
  return data
}
const values = (form) => Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, v]))
$('submit').addEventListener('submit', (e) => { e.preventDefault(); const v = values(e.target); v.saveCredentials = e.target.saveCredentials.checked; $('status').textContent = 'signing_in'; call('/submit', v) })
$('finish').addEventListener('submit', (e) => { e.preventDefault(); const v = values(e.target); v.saveCredentials = e.target.saveCredentials.checked; call('/finish', v) })
$('decline').addEventListener('submit', (e) => { e.preventDefault(); call('/decline', {}) })
async function poll() { if (!done) await call('/state').catch(() => null); if (!done) setTimeout(poll, 1000) }
poll()
</script></body></html>`
}
