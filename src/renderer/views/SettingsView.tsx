import { useEffect, useState } from 'react'
import type { AppSettings } from '../../shared/appApi'
import { AppError, invoke } from '../api'
import { LocalSites } from '../components/LocalSites'
import { ServerLink } from '../components/ServerLink'
import { useAppStore } from '../stores/useAppStore'

const SOURCE = {
  env: 'from SITECALL_CHROMIUM, which wins over this setting',
  setting: 'the path set here',
  default: 'found in the usual places',
} as const

/** Saves a change; a refused value is said beside its form, not in the global banner. */
function useSave(apply: (next: AppSettings) => void) {
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)
  const save = async (input: Parameters<typeof invoke<'settings.update'>>[1]) => {
    setSaved(false)
    try {
      apply(await invoke('settings.update', input))
      setError(null)
      setSaved(true)
      void useAppStore.getState().loadInfo()
    } catch (e) {
      if (e instanceof AppError && e.code === 'invalid_input') setError(e.message)
      else useAppStore.getState().report(e)
    }
  }
  return { error, saved, save }
}

function ChromiumSetting({
  settings,
  apply,
}: {
  settings: AppSettings
  apply: (s: AppSettings) => void
}) {
  const [path, setPath] = useState(settings.chromiumPath ?? '')
  const { error, saved, save } = useSave(apply)
  const inUse = settings.chromium
  return (
    <form
      className="settings-form"
      data-testid="settings-chromium-form"
      onSubmit={(e) => {
        e.preventDefault()
        void save({ chromiumPath: path.trim() || null })
      }}
    >
      <label className="field">
        <span className="field-name">Chromium path</span>
        <input
          data-testid="settings-chromium-path"
          placeholder="/usr/bin/chromium"
          value={path}
          aria-invalid={error ? true : undefined}
          aria-describedby="settings-chromium-status"
          onChange={(e) => setPath(e.target.value)}
        />
      </label>
      <button type="submit" data-testid="settings-chromium-save">
        Save
      </button>
      <div id="settings-chromium-status" className="hint">
        {error ? (
          <span className="danger-text" role="alert" data-testid="settings-chromium-error">
            {error}
          </span>
        ) : inUse.path ? (
          <>
            In use: <code data-testid="settings-chromium">{inUse.path}</code> (
            {SOURCE[inUse.source ?? 'default']}). Empty: search the usual places. Applies to the
            next recording, sign-in and browser run.
          </>
        ) : (
          <span data-testid="settings-chromium">{inUse.hint}</span>
        )}
        {saved && !error && (
          <span role="status" data-testid="settings-chromium-saved">
            {' '}
            Saved.
          </span>
        )}
      </div>
    </form>
  )
}

function RetentionSetting({
  settings,
  apply,
}: {
  settings: AppSettings
  apply: (s: AppSettings) => void
}) {
  const [days, setDays] = useState(String(settings.resultRetention.days))
  const [maxMB, setMaxMB] = useState(String(settings.resultRetention.maxMB))
  const { error, saved, save } = useSave(apply)
  return (
    <form
      className="settings-form"
      data-testid="settings-retention-form"
      onSubmit={(e) => {
        e.preventDefault()
        void save({ resultRetention: { days: Number(days), maxMB: Number(maxMB) } })
      }}
    >
      <label className="field">
        <span className="field-name">Keep run results (days)</span>
        <input
          data-testid="settings-retention-days"
          inputMode="numeric"
          value={days}
          aria-invalid={error ? true : undefined}
          onChange={(e) => setDays(e.target.value)}
        />
      </label>
      <label className="field">
        <span className="field-name">At most (MB)</span>
        <input
          data-testid="settings-retention-mb"
          inputMode="numeric"
          value={maxMB}
          aria-invalid={error ? true : undefined}
          onChange={(e) => setMaxMB(e.target.value)}
        />
      </label>
      <button type="submit" data-testid="settings-retention-save">
        Save
      </button>
      <div className="hint">
        {error ? (
          <span className="danger-text" role="alert" data-testid="settings-retention-error">
            {error}
          </span>
        ) : (
          'Older results, and the oldest beyond the size, are dropped; the runs stay listed. Applies at once.'
        )}
        {saved && !error && (
          <span role="status" data-testid="settings-retention-saved">
            {' '}
            Saved.
          </span>
        )}
      </div>
    </form>
  )
}

/** Where this app keeps things and what it runs with, editable. */
export function SettingsView() {
  const info = useAppStore((s) => s.info)
  const [settings, setSettings] = useState<AppSettings | null>(null)
  useEffect(() => {
    void invoke('settings.get', {}).then(setSettings, (e: unknown) =>
      useAppStore.getState().report(e),
    )
  }, [])
  if (!info || !settings) return <p className="muted">Loading…</p>
  return (
    <>
      <h1>Settings</h1>
      <section className="card" data-testid="settings">
        <h2>Browser</h2>
        <ChromiumSetting settings={settings} apply={setSettings} />
        <h2>Run results</h2>
        <RetentionSetting settings={settings} apply={setSettings} />
        <h2>This app</h2>
        <table className="kv">
          <tbody>
            <tr>
              <td>Data folder</td>
              <td>
                <code data-testid="settings-data-dir">{settings.dataDir}</code>
                <div className="hint">
                  Set <code>SITECALL_HOME</code> before starting to use another folder.
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
      <ServerLink />
      <LocalSites />
    </>
  )
}
