import { API_SCOPES } from '../../../shared/apiScopes'
import type { PendingConsent } from './authorization'

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )

const PAGE_STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}
h1{font-size:1.3rem}ul{padding-left:1.2rem}code{background:#f1f3f5;padding:0 .25rem;border-radius:3px}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}button{font:inherit;padding:.5rem 1.2rem;border-radius:6px;border:1px solid #8a939c;background:#fff;cursor:pointer}
button[value=approve]{background:#1f6feb;border-color:#1f6feb;color:#fff}.note{color:#57606a;font-size:.9rem}`

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><meta name="viewport" content="width=device-width,initial-scale=1"><style>${PAGE_STYLE}</style></head><body>${body}</body></html>`
}

/**
 * The consent page of `GET /oauth/authorize`: who asks (the client's self-declared name and the
 * host it sends the code to), what each requested scope allows, and Approve/Deny posting the
 * consent id back to `POST /oauth/authorize`. The owner session travels in its cookie, so the
 * form carries no credential.
 */
export function renderConsentPage(consent: PendingConsent): string {
  const target = new URL(consent.redirectUri)
  const scopes = consent.scopes
    .map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(API_SCOPES[s])}</li>`)
    .join('')
  return page(
    'Allow access to Sitecall?',
    `<h1>Allow <strong>${escapeHtml(consent.client.name)}</strong> to use Sitecall?</h1>
<p>It asks for:</p><ul>${scopes}</ul>
<p class="note">After you approve, your browser goes back to <code>${escapeHtml(target.origin)}</code>. Its access lasts an hour at a time and renews itself for up to 30 days of disuse; a client name is chosen by the client itself.</p>
<form method="post" action="/oauth/authorize"><input type="hidden" name="consent" value="${escapeHtml(consent.id)}">
<div class="actions"><button type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="deny">Deny</button></div></form>`,
  )
}

/** The page shown instead of the consent when the browser holds no valid owner session. */
export function renderSignInNeededPage(): string {
  return page(
    'Open Sitecall first',
    `<h1>Open Sitecall first</h1><p>Only the owner of this Sitecall app may approve access. Open the app in this browser (the address <code>sitecall serve</code> printed, or the app's window), then reload this page.</p>`,
  )
}
