/**
 * What a tab without the owner's link shows: the app's pages belong to the
 * person who started it, who holds a link with a token; this says where that link comes from.
 */
export function SignedOutPage() {
  return (
    <main className="signed-out" data-testid="signed-out">
      <div className="card">
        <h1>Open Sitecall with its link</h1>
        <p>
          This app answers only the person who started it. When <code>sitecall serve</code> starts,
          it prints a link like <code>{`${location.origin}/app/?code=…`}</code>: open that link, in
          this browser, to get in. Once a browser has signed in,{' '}
          <code>{`${location.origin}/app/`}</code> opens in any of its tabs.
        </p>
        <h2>Lost the link, or it stopped working?</h2>
        <ol>
          <li>
            In the terminal where Sitecall runs, stop it with <kbd>Ctrl</kbd>+<kbd>C</kbd>.
          </li>
          <li>
            Start it again with <code>sitecall serve</code> (or <code>npm run serve</code> in the
            repository): it prints a new link.
          </li>
        </ol>
        <p className="muted small">
          A link works once, within 10 minutes of the start; the session it opens lasts an hour and
          is renewed while a page stays open. A link from an earlier start no longer works. The
          desktop app needs no link.
        </p>
      </div>
    </main>
  )
}
