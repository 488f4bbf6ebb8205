/**
 * The renderer's Content-Security-Policy (Electron's security checklist §7):
 * only the app's own scripts, no plugins, no framing, no base rewrites. Styles may be inline
 * because React sets `style` attributes; `connect-src 'self'` covers the web UI's `/app-api`.
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/** Headers of every page of the app's UI (the window's and `/app/`'s). */
export const UI_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': RENDERER_CSP,
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
}
