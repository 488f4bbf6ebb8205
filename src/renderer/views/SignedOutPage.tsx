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
          it prints a link like <code>http://127.0.0.1:7411/app/?token=…</code>: open that link, in
          this browser, to get in.
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
          The token in the link lasts an hour and is renewed while the page stays open; a link from
          an earlier start no longer works. The desktop app needs no link.
        </p>
      </div>
    </main>
  )
}
