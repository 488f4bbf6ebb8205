import { useEffect, useState } from 'react'
import { hasOwnerSession } from './api'
import { SignedOutPage } from './views/SignedOutPage'
import { ErrorBanner } from './components/ErrorBanner'
import { StatusLine } from './components/StatusLine'
import { useHashRoute, type Route } from './route'
import { bindEvents } from './stores/bindEvents'
import { useAppStore } from './stores/useAppStore'
import { pendingCount, useInboxStore } from './stores/useInboxStore'
import { ConnectView } from './views/ConnectView'
import { InboxView } from './views/InboxView'
import { KeysView } from './views/KeysView'
import { LoginsView } from './views/LoginsView'
import { RecordView } from './views/RecordView'
import { SecretsView } from './views/SecretsView'
import { RunsView } from './views/RunsView'
import { SettingsView } from './views/SettingsView'
import { ToolPage } from './views/ToolPage'
import { UsageView } from './views/UsageView'
import { TracePage } from './views/TracePage'
import { TracesView } from './views/TracesView'
import { ToolsView } from './views/ToolsView'

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
          <View route={route} />
        </main>
        <StatusLine />
      </div>
    </div>
  )
}
