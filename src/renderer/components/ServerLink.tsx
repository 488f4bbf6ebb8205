import { useEffect, useState } from 'react'
import type { SyncConflictView, SyncStatus } from '../../shared/appApi'
import { invoke, on } from '../api'
import { formatAgo, formatTime } from '../format'
import { useAppStore } from '../stores/useAppStore'
import { conflictRows, markedLines, progressText } from '../syncDiff'
import { useNow } from '../useNow'
import { ConfirmButton } from './ConfirmButton'

/** The sync status, kept fresh by the core's `sync.changed` events. */
function useSyncStatus(): [SyncStatus | null, (next: SyncStatus) => void] {
  const [status, setStatus] = useState<SyncStatus | null>(null)
  useEffect(() => {
    const off = on('sync.changed', ({ status: next }) => setStatus(next))
    void invoke('sync.status', {}).then(setStatus, (e: unknown) => useAppStore.getState().report(e))
    return off
  }, [])
  return [status, setStatus]
}

/** Calls a `sync.*` method and shows its answer; a transport failure goes to the banner. */
function useSyncCall(apply: (next: SyncStatus) => void) {
  const [busy, setBusy] = useState(false)
  const call = async (work: () => Promise<SyncStatus>): Promise<SyncStatus | null> => {
    setBusy(true)
    try {
      const next = await work()
      apply(next)
      return next
    } catch (e) {
      useAppStore.getState().report(e)
      return null
    } finally {
      setBusy(false)
    }
  }
  return { busy, call }
}

function LinkForm({
  busy,
  call,
  serverUrl,
  setServerUrl,
}: ReturnType<typeof useSyncCall> & { serverUrl: string; setServerUrl: (url: string) => void }) {
  const [token, setToken] = useState('')
  const [useToken, setUseToken] = useState(false)
  return (
    <form
      className="settings-form"
      data-testid="sync-link-form"
      onSubmit={(e) => {
        e.preventDefault()
        void call(() =>
          invoke('sync.link', { serverUrl, ...(useToken && token ? { token } : {}) }),
        ).then((next) => {
          // The sign-in page opens in the system browser (the desktop window hands http(s)
          // windows to the main process's shell.openExternal).
          if (next?.linking?.authorizeUrl) window.open(next.linking.authorizeUrl, '_blank')
        })
      }}
    >
      <label className="field sync-url">
        <span className="field-name">Server URL</span>
        <input
          data-testid="sync-server-url"
          placeholder="https://sitecall.example.org"
          value={serverUrl}
          required
          onChange={(e) => setServerUrl(e.target.value)}
        />
      </label>
      {useToken && (
        <label className="field">
          <span className="field-name">Owner token</span>
          <input
            data-testid="sync-token"
            type="password"
            autoComplete="off"
            placeholder="svc_owner_…"
            value={token}
            onChange={(e) => setToken(e.target.value)}
          />
        </label>
      )}
      <button type="submit" className="primary" data-testid="sync-link" disabled={busy}>
        {useToken ? 'Link with token' : 'Link…'}
      </button>
      <div className="hint">
        {useToken ? (
          <>
            For self-hosted scripts: an account&apos;s owner token (it lasts an hour).{' '}
            <button type="button" className="link" onClick={() => setUseToken(false)}>
              Sign in in the browser instead
            </button>
          </>
        ) : (
          <>
            Opens the server&apos;s sign-in page in your browser; approve there and come back.
            Verified tools are pushed, the workspace&apos;s tools pulled; logins, secrets and
            recordings stay here.{' '}
            <button
              type="button"
              className="link"
              data-testid="sync-use-token"
              onClick={() => setUseToken(true)}
            >
              Use a token instead
            </button>
          </>
        )}
      </div>
    </form>
  )
}

/** One side of a conflict row; the lines the other side lacks are marked. */
function Lines({ text, other }: { text: string; other: string | null }) {
  return (
    <pre>
      {markedLines(text, other).map((line, i) => (
        <span key={i} className={line.changed ? 'diff-changed' : undefined}>
          {line.text}
          {'\n'}
        </span>
      ))}
    </pre>
  )
}

function ConflictCard({
  conflict,
  busy,
  take,
}: {
  conflict: SyncConflictView
  busy: boolean
  take: (side: 'mine' | 'theirs') => void
}) {
  const rows = conflictRows(conflict.mine, conflict.theirs)
  const name = conflict.mine?.name ?? conflict.theirs?.name ?? conflict.toolId
  return (
    <div className="sync-conflict" data-testid="sync-conflict">
      <h3>
        <code>{name}</code>
      </h3>
      <p className="hint">
        Changed here and on the server (revision {conflict.theirRevision}) since the last sync. Keep
        one version; the other is replaced.
      </p>
      <table className="diff" data-testid="sync-conflict-diff">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">This desktop</th>
            <th scope="col">Server</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={3} className="muted">
                They differ only in when they were saved.
              </td>
            </tr>
          )}
          {rows.map((row) => (
            <tr key={row.field} data-testid={`sync-diff-${row.field}`}>
              <th scope="row">{row.label}</th>
              <td>
                {row.mine === null ? (
                  <em>deleted here</em>
                ) : (
                  <Lines text={row.mine} other={row.theirs} />
                )}
              </td>
              <td>
                {row.theirs === null ? (
                  <em>deleted on the server</em>
                ) : (
                  <Lines text={row.theirs} other={row.mine} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row">
        <button data-testid="sync-take-mine" disabled={busy} onClick={() => take('mine')}>
          Keep mine
        </button>
        <button data-testid="sync-take-theirs" disabled={busy} onClick={() => take('theirs')}>
          Keep the server&apos;s
        </button>
      </div>
    </div>
  )
}

/**
 * Settings → "Link to a server" (docs/app-guide.md "Link from the app"): link this desktop to a team server (OAuth in the
 * system browser, or an owner token), see what it is linked to, the last sync, the outbox and
 * the conflicts (both versions side by side, keep mine or theirs), sync now with progress, and
 * unlink (asked first; the tools stay).
 */
export function ServerLink() {
  const [status, setStatus] = useSyncStatus()
  const { busy, call } = useSyncCall(setStatus)
  // Kept here, not in the form: the form goes while a link waits, and a cancel brings it back.
  const [serverUrl, setServerUrl] = useState('')
  const now = useNow(0, 30_000)
  if (!status) return null
  if (!status.available) return null
  const { link, linking, running, error } = status
  return (
    <section className="card" data-testid="sync">
      <h2>Link to a server</h2>
      {error && (
        <p className="danger-text" role="alert" data-testid="sync-error">
          <code>{error.code}</code> {error.message}
        </p>
      )}
      {!link && !linking && (
        <LinkForm busy={busy} call={call} serverUrl={serverUrl} setServerUrl={setServerUrl} />
      )}
      {linking && (
        <div className="row" data-testid="sync-linking" role="status">
          <span>
            Waiting for your approval in the browser at <code>{linking.serverUrl}</code>…
          </span>
          {linking.authorizeUrl && (
            <a href={linking.authorizeUrl} target="_blank" rel="noreferrer">
              Open the sign-in page again
            </a>
          )}
          <button
            data-testid="sync-cancel-link"
            onClick={() => void call(() => invoke('sync.cancelLink', {}))}
          >
            Cancel
          </button>
        </div>
      )}
      {link && (
        <>
          <LinkFacts status={status} now={now} />
          <div className="row">
            <button
              className="primary"
              data-testid="sync-now"
              disabled={busy || running !== null}
              onClick={() => void call(() => invoke('sync.run', {}))}
            >
              Sync now
            </button>
            {running && (
              <span role="status" aria-live="polite" data-testid="sync-progress">
                <progress
                  max={Math.max(1, running.total)}
                  value={running.phase === 'pull' ? running.total : running.done}
                  aria-label="Sync progress"
                />{' '}
                {progressText(running)}
              </span>
            )}
            <span className="spacer" />
            <ConfirmButton
              label="Unlink"
              testId="sync-unlink"
              onConfirm={() => void call(() => invoke('sync.unlink', {}))}
            />
          </div>
          <p className="hint">Unlink forgets the server and its token; every tool stays here.</p>
          {status.conflicts.map((c) => (
            <ConflictCard
              key={c.toolId}
              conflict={c}
              busy={busy || running !== null}
              take={(side) => void call(() => invoke('sync.take', { toolId: c.toolId, side }))}
            />
          ))}
        </>
      )}
    </section>
  )
}

/** What the desktop is linked to: the server, the workspace, the token's keeping, the last sync. */
function LinkFacts({ status, now }: { status: SyncStatus; now: number }) {
  const { link, lastSync } = status
  if (!link) return null
  return (
    <table className="kv" data-testid="sync-link">
      <tbody>
        <tr>
          <td>Linked to</td>
          <td>
            <code data-testid="sync-linked-server">{link.serverUrl}</code>
            <div className="hint">since {formatTime(link.linkedAt)}</div>
          </td>
        </tr>
        <tr>
          <td>Workspace</td>
          <td data-testid="sync-workspace">
            {link.workspace ? <code>{link.workspace}</code> : "the account's first"}
            <div className="hint">
              {link.auth === 'oauth' ? 'Signed in through the browser' : 'An owner token'}; its
              token is kept{' '}
              {link.tokenStore === 'keychain' ? 'in the OS keychain' : 'sealed by the vault'}.
            </div>
          </td>
        </tr>
        <tr>
          <td>Last sync</td>
          <td data-testid="sync-last">
            {lastSync ? (
              <>
                {formatAgo(lastSync.at, now)}: pushed {lastSync.pushed}, deleted {lastSync.deleted};
                pulled {lastSync.pulled}, removed {lastSync.removed}; server revision{' '}
                {lastSync.revision}.
              </>
            ) : (
              <span className="muted">not since the app started</span>
            )}
            {lastSync?.refused.map((r) => (
              <div key={r.toolId} className="hint danger-text">
                Refused {r.toolId}: <code>{r.code}</code> {r.message}
              </div>
            ))}
          </td>
        </tr>
        <tr>
          <td>Waiting to push</td>
          <td data-testid="sync-outbox">
            {status.outbox} {status.outbox === 1 ? 'change' : 'changes'}
          </td>
        </tr>
        <tr>
          <td>Conflicts</td>
          <td data-testid="sync-conflict-count">{status.conflicts.length}</td>
        </tr>
      </tbody>
    </table>
  )
}
