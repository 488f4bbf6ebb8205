import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react'
import { hasOwnerSession } from './api'
import { SignedOutPage } from './views/SignedOutPage'
import { ErrorBanner } from './components/ErrorBanner'
import { StatusLine } from './components/StatusLine'
import { useHashRoute, type Route } from './route'
import { bindEvents } from './stores/bindEvents'
import { useAppStore } from './stores/useAppStore'
import { pendingCount, useInboxStore } from './stores/useInboxStore'
// Each view is its own chunk, loaded when first opened: the first page loads only the shell and
// the view it shows (the single bundle was 856 kB unminified).
function lazyView<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => ({ default: await load() }))
}
const ConnectView = lazyView(() => import('./views/ConnectView').then((m) => m.ConnectView))
const InboxView = lazyView(() => import('./views/InboxView').then((m) => m.InboxView))
const KeysView = lazyView(() => import('./views/KeysView').then((m) => m.KeysView))
const LoginsView = lazyView(() => import('./views/LoginsView').then((m) => m.LoginsView))
const RecordView = lazyView(() => import('./views/RecordView').then((m) => m.RecordView))
const SecretsView = lazyView(() => import('./views/SecretsView').then((m) => m.SecretsView))
const RunsView = lazyView(() => import('./views/RunsView').then((m) => m.RunsView))
const SettingsView = lazyView(() => import('./views/SettingsView').then((m) => m.SettingsView))
const ToolPage = lazyView(() => import('./views/ToolPage').then((m) => m.ToolPage))
const UsageView = lazyView(() => import('./views/UsageView').then((m) => m.UsageView))
const TracePage = lazyView(() => import('./views/TracePage').then((m) => m.TracePage))
const TracesView = lazyView(() => import('./views/TracesView').then((m) => m.TracesView))
const ToolsView = lazyView(() => import('./views/ToolsView').then((m) => m.ToolsView))

const NAV = [
  { view: 'record', label: 'Record', href: '#/record' },
  { view: 'traces', label: 'Traces', href: '#/traces' },
  { view: 'tools', label: 'Tools', href: '#/tools' },
  { view: 'runs', label: 'Runs', href: '#/runs' },
  { view: 'inbox', label: 'Inbox', href: '#/inbox' },
  { view: 'logins', label: 'Logins', href: '#/logins' },
  { view: 'secrets', label: 'Secrets', href: '#/secrets' },
  { view: 'keys', label: 'Keys', href: '#/keys' },
  { view: 'connect', label: 'Connect', href: '#/connect' },
  { view: 'usage', label: 'Usage', href: '#/usage' },
  { view: 'settings', label: 'Settings', href: '#/settings' },
] as const

function View({ route }: { route: Route }) {
  switch (route.view) {
    case 'record':
      return <RecordView />
    case 'tools':
      return <ToolsView />
    case 'tool':
      return <ToolPage id={route.id} />
    case 'inbox':
      return <InboxView />
    case 'logins':
      return <LoginsView />
    case 'secrets':
      return <SecretsView />
    case 'keys':
      return <KeysView />
    case 'connect':
      return <ConnectView />
    case 'runs':
      return <RunsView />
    case 'usage':
      return <UsageView />
    case 'settings':
      return <SettingsView />
    case 'traces':
      return <TracesView />
    case 'trace':
      return <TracePage id={route.id} />
  }
}

export function App() {
  const signedOut = useAppStore((s) => s.signedOut)
  const [hasSession] = useState(hasOwnerSession)
  if (!hasSession || signedOut) return <SignedOutPage />
  return <SignedInApp />
}

function SignedInApp() {
  const route = useHashRoute()
  const section = route.view === 'tool' ? 'tools' : route.view === 'trace' ? 'traces' : route.view
  const pending = useInboxStore((s) => pendingCount(s.items))
  useEffect(() => bindEvents(), [])
  useEffect(() => void useAppStore.getState().loadInfo(), [])
  // An error belongs to the page it happened on.
  useEffect(() => useAppStore.getState().dismiss(), [location.hash])
  return (
    <div className="layout">
      <nav className="sidebar">
        <div className="brand">Sitecall</div>
        {NAV.map((item) => (
          <a
            key={item.view}
            href={item.href}
            data-testid={`nav-${item.view}`}
            className={item.view === section ? 'active' : ''}
          >
            {item.label}
            {item.view === 'inbox' && pending > 0 && (
              <span
                className="nav-count"
                data-testid="inbox-count"
                aria-label={`${pending} waiting`}
              >
                {pending}
              </span>
            )}
          </a>
        ))}
      </nav>
      <div className="main">
        <ErrorBanner />
        <main className="content">
          <Suspense fallback={<p className="muted">Loading…</p>}>
            <View route={route} />
          </Suspense>
        </main>
        <StatusLine />
      </div>
    </div>
  )
}
