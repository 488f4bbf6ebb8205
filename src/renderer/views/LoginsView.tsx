import { useEffect, useState } from 'react'
import type { LoginSummary, SignInState } from '../../shared/appApi'
import { HttpAuthPrompt } from '../components/HttpAuthPrompt'
import { ScreencastView } from '../components/ScreencastView'
import { formatAgo, formatTime } from '../format'
import { SIGNING_IN, useLoginsStore } from '../stores/useLoginsStore'
import { useNow } from '../useNow'
import { ConfirmButton } from '../components/ConfirmButton'
import { ListTable } from '../components/ListTable'

/** How often an open sign-in is read again while the person signs in, ms. */
const POLL_MS = 1500

/** The sign-in in progress: what to do in the browser, then what to keep. */
function SignInPanel({ signIn }: { signIn: SignInState }) {
  const { refresh, finish, cancel, dismissSignIn } = useLoginsStore()
  const [keep, setKeep] = useState(true)
  const [seed, setSeed] = useState('')
  const waiting = SIGNING_IN.includes(signIn.status)
  useEffect(() => {
    if (!waiting) return
    const timer = setInterval(() => void refresh(), POLL_MS)
    return () => clearInterval(timer)
  }, [waiting, refresh])

  if (waiting && signIn.authChallenge)
    return (
      <div data-testid="sign-in-panel">
        <HttpAuthPrompt
          challenge={signIn.authChallenge}
          answer={useLoginsStore.getState().answerAuth}
        />
        <button onClick={() => void cancel()}>Cancel the sign-in</button>
      </div>
    )
  if (waiting && signIn.view === 'screencast')
    return (
      <section data-testid="sign-in-panel" aria-label={`Sign in to ${signIn.host}`}>
        <div className="banner banner-info">
          <span>
            Sign in to <strong>{signIn.host}</strong> in the browser below, as you would in any
            browser. Sitecall notices when you are signed in and keeps the login.
          </span>
          <button onClick={() => void cancel()}>Cancel</button>
        </div>
        <ScreencastView sessionId={signIn.signInId} purpose="sign-in" />
      </section>
    )
  if (waiting)
    return (
      <div className="banner banner-info" data-testid="sign-in-panel">
        <span>
          A browser window is open on <code>{signIn.url}</code>: sign in there. Sitecall notices
          when you are signed in.
        </span>
        <button onClick={() => void cancel()}>Cancel</button>
      </div>
    )
  if (signIn.status === 'signed_in')
    return (
      <form
        className="card"
        data-testid="sign-in-panel"
        onSubmit={(e) => {
          e.preventDefault()
          void finish(keep && signIn.canSaveCredentials, seed)
        }}
      >
        <h2>Signed in to {signIn.host}</h2>
        {signIn.canSaveCredentials && (
          <label className="check">
            <input type="checkbox" checked={keep} onChange={(e) => setKeep(e.target.checked)} />
            Keep the username{signIn.username ? ` (${signIn.username})` : ''} and password in the
            vault, so Sitecall signs in again by itself when the session expires
          </label>
        )}
        {signIn.sawOneTimeCode && (
          <label className="field">
            <span className="field-name">Authenticator seed (optional)</span>
            <input
              type="password"
              autoComplete="off"
              placeholder="Base32 secret or otpauth:// link"
              value={seed}
              onChange={(e) => setSeed(e.target.value)}
            />
            <span className="hint">
              The site asked a one-time code. Without its seed, an expired session needs you.
            </span>
          </label>
        )}
        <div className="row">
          <button className="primary" type="submit" data-testid="sign-in-save">
            Save login
          </button>
          <button type="button" onClick={() => void cancel()}>
            Discard
          </button>
        </div>
      </form>
    )
  const ok = signIn.status === 'saved'
  return (
    <div className={`banner ${ok ? 'banner-ok' : 'banner-warn'}`} data-testid="sign-in-panel">
      <span>{ok ? `The login of ${signIn.host} is saved.` : signIn.message}</span>
      <button className="link" onClick={dismissSignIn} aria-label="Dismiss">
        ✕
      </button>
    </div>
  )
}

function LoginRow({ login, now }: { login: LoginSummary; now: number }) {
  const { start, forget, signIn } = useLoginsStore()
  const busy = signIn !== null && SIGNING_IN.includes(signIn.status)
  return (
    <tr data-testid="login-row">
      <td>
        <strong>{login.host}</strong>
        {login.loginUrl && <div className="muted small">{login.loginUrl}</div>}
      </td>
      <td data-testid="login-state">
        <span className="badge badge-green">saved</span>
        <div className="muted small">
          {login.hasPassword
            ? `Signs in again by itself${login.hasTotp ? ', with its one-time codes' : ''}`
            : 'You sign in again when it expires'}
        </div>
      </td>
      <td className="nowrap" title={formatTime(login.savedAt)}>
        {formatAgo(login.savedAt, now)}
      </td>
      <td className="nowrap" data-testid="login-last-used">
        {login.lastUsedAt === null ? (
          <span className="muted">never</span>
        ) : (
          formatAgo(login.lastUsedAt, now)
        )}
      </td>
      <td className="actions">
        <button
          data-testid="login-sign-in"
          disabled={busy}
          onClick={() => void start({ host: login.host })}
        >
          Sign in again
        </button>
        <ConfirmButton
          label="Forget"
          testId="login-forget"
          onConfirm={() => void forget(login.host)}
        />
      </td>
    </tr>
  )
}

/** Saved site logins: sites, state, last use, sign in again, forget. */
export function LoginsView() {
  const { logins, signIn, load, start } = useLoginsStore()
  const [url, setUrl] = useState('')
  const now = useNow(0, 30_000)
  useEffect(() => void load(), [load])
  // A sign-in that saved a login changes the list.
  useEffect(() => {
    if (signIn?.status === 'saved') void load()
  }, [signIn?.status, load])
  const busy = signIn !== null && SIGNING_IN.includes(signIn.status)
  return (
    <>
      <h1>Logins</h1>
      <p className="muted">
        Your sessions on sites, kept encrypted on this machine. Runs of a site&apos;s tools use its
        login.
      </p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault()
          void start({ url: url.trim() }).then(() => setUrl(''))
        }}
      >
        <input
          data-testid="sign-in-url"
          aria-label="The site's sign-in page"
          type="url"
          required
          placeholder="https://shop.example.com/login"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <button className="primary" type="submit" disabled={busy} data-testid="sign-in-start">
          Sign in to a site
        </button>
      </form>
      {signIn && <SignInPanel signIn={signIn} />}
      {logins && logins.length === 0 && <p className="muted">No saved logins yet.</p>}
      {logins && logins.length > 0 && (
        <div className="card flush">
          <ListTable columns={['Site', 'State', 'Saved', 'Last used', null]} testId="logins-table">
            {logins.map((l) => (
              <LoginRow key={l.host} login={l} now={now} />
            ))}
          </ListTable>
        </div>
      )}
    </>
  )
}
