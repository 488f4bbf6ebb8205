import { useAppStore } from '../stores/useAppStore'

/** Where the app keeps its data, where programs call it, and which browser records. */
export function StatusLine() {
  const info = useAppStore((s) => s.info)
  if (!info) return <footer className="status-line">Connecting…</footer>
  return (
    <footer className="status-line" data-testid="status-line">
      <span>Sitecall {info.version}</span>
      <span>Data {info.dataDir}</span>
      <span>API {info.apiUrl}</span>
      {info.chromium.path ? (
        <span>Chromium {info.chromium.path}</span>
      ) : (
        <span className="warn">
          No Chromium: {info.chromium.hint ?? 'install Chromium to record'}
        </span>
      )}
    </footer>
  )
}
