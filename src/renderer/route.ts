import { useSyncExternalStore } from 'react'

export type Route =
  { view: 'record' } | { view: 'tools' } | { view: 'tool'; id: string } | { view: 'keys' }

export function parseHash(hash: string): Route {
  const [, view, id] = hash.replace(/^#/, '').split('/')
  if (view === 'tools' && id) return { view: 'tool', id: decodeURIComponent(id) }
  if (view === 'tools' || view === 'keys') return { view }
  return { view: 'record' }
}

export function toolHref(id: string): string {
  return `#/tools/${encodeURIComponent(id)}`
}

const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange)
  return () => window.removeEventListener('hashchange', onChange)
}

/** The current `#/view/id` route; hash routing keeps the app working from file:// in Electron. */
export function useHashRoute(): Route {
  return parseHash(useSyncExternalStore(subscribe, () => location.hash))
}
