import { useEffect, useState } from 'react'
import type { LocalSiteSummary } from '../../shared/appApi'
import { invoke } from '../api'
import { attempt } from '../stores/useAppStore'

/**
 * The local sites agents may index and browse: apps on this machine or the
 * private network are out of reach of API keys and OAuth clients until allowed here. Cloud
 * metadata addresses stay out of reach whatever this lists.
 */
export function LocalSites() {
  const [sites, setSites] = useState<LocalSiteSummary[] | null>(null)
  const [host, setHost] = useState('')
  const load = async () => setSites((await attempt(invoke('localSites.list', {}))) ?? [])
  useEffect(() => void load(), [])

  const allow = async () => {
    if (!(await attempt(invoke('localSites.allow', { host: host.trim() })))) return
    setHost('')
    await load()
  }
  const remove = async (site: string) => {
    await attempt(invoke('localSites.remove', { host: site }))
    await load()
  }

  return (
    <section className="card" data-testid="local-sites">
      <h2>Local sites</h2>
      <p className="hint">
        Agents reach apps on this machine or your network only where you allow it: give the host and
        port (<code>127.0.0.1:8080</code>), or a host name for every port.
      </p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault()
          void allow()
        }}
      >
        <input
          aria-label="Local site"
          placeholder="127.0.0.1:8080"
          value={host}
          onChange={(e) => setHost(e.target.value)}
        />
        <button type="submit" disabled={!host.trim()}>
          Allow
        </button>
      </form>
      {sites && sites.length === 0 && <p className="muted">None allowed.</p>}
      <ul>
        {sites?.map((s) => (
          <li key={s.host} className="row">
            <code>{s.host}</code>
            <button onClick={() => void remove(s.host)}>Remove</button>
          </li>
        ))}
      </ul>
    </section>
  )
}
