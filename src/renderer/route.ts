import { useSyncExternalStore } from 'react'

export type Route =
  | { view: 'record' }
  | { view: 'tools' }
  | { view: 'tool'; id: string }
  | { view: 'inbox' }
  | { view: 'logins' }
  | { view: 'secrets' }
  | { view: 'keys' }
  | { view: 'connect' }
  | { view: 'traces' }
  | { view: 'runs' }
  | { view: 'usage' }
  | { view: 'settings' }
  | { view: 'trace'; id: string }

const PLAIN_VIEWS = [
  'tools',
  'inbox',
  'logins',
  'secrets',
  'keys',
  'connect',
  'traces',
  'runs',
  'usage',
  'settings',
] as const

/** The view a location hash names (`#/tools/<id>`, `#/inbox`, …); unknown hashes show Record. */
function parseHash(hash: string): Route {
  const [, view, id] = hash.replace(/^#/, '').split('/')
  if (view === 'tools' && id) return { view: 'tool', id: decodeURIComponent(id) }
  if (view === 'traces' && id) return { view: 'trace', id: decodeURIComponent(id) }
  const plain = PLAIN_VIEWS.find((v) => v === view)
  if (plain) return { view: plain }
  return { view: 'record' }
}

/** The hash of a tool's page, its id percent-encoded. */
export function toolHref(id: string): string {
  return `#/tools/${encodeURIComponent(id)}`
}

/** The hash of a trace's page, its id percent-encoded. */
export function traceHref(id: string): string {
  return `#/traces/${encodeURIComponent(id)}`
}

const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange)
  return () => window.removeEventListener('hashchange', onChange)
}

/** The current `#/view/id` route; hash routing keeps the app working from file:// in Electron. */
export function useHashRoute(): Route {
  return parseHash(useSyncExternalStore(subscribe, () => location.hash))
}
