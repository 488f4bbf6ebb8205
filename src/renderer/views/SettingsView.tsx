import { LocalSites } from '../components/LocalSites'
import { useAppStore } from '../stores/useAppStore'

/** Where this app keeps things and what it runs with (issue 14 item 6). */
export function SettingsView() {
  const info = useAppStore((s) => s.info)
  if (!info) return <p className="muted">Loading…</p>
  return (
    <>
      <h1>Settings</h1>
      <section className="card" data-testid="settings">
        <table className="kv">
          <tbody>
            <tr>
              <td>Data folder</td>
              <td>
                <code data-testid="settings-data-dir">{info.dataDir}</code>
                <div className="hint">
                  Set <code>SITECALL_HOME</code> before starting to use another folder.
                </div>
              </td>
            </tr>
            <tr>
              <td>Chromium</td>
              <td>
                <code data-testid="settings-chromium">{info.chromium.path ?? 'not found'}</code>
                <div className="hint">
                  {info.chromium.hint ??
                    'Recording and sign-in use this browser. To choose another, write {"chromiumPath": "/path/to/chrome"} into settings.json in the data folder, or set SITECALL_CHROMIUM.'}
                </div>
              </td>
            </tr>
            <tr>
              <td>Local service</td>
              <td>
                <code>{info.apiUrl}</code>
                <div className="hint">
                  Listens on 127.0.0.1 only; <code>sitecall serve --port N</code> picks the port.
                </div>
              </td>
            </tr>
            <tr>
              <td>Version</td>
              <td>{info.version}</td>
            </tr>
          </tbody>
        </table>
      </section>
      <LocalSites />
    </>
  )
}
