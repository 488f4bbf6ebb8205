/**
 * The contract of the real-app corpus (issue 9, docs/architecture.md "Tests"): open-source web apps that nobody
 * here wrote, installed from npm or apt, run offline on 127.0.0.1 with seed data, each with
 * scripted workflows and answer keys written by hand. Every app lives in `test/apps/<app>/` and
 * exports an {@link AppDefinition} as `app` from its `index.ts`; its recorded traces live in
 * `test/fixtures/apps/<app>/`.
 */
import type { Page } from 'playwright-core'
import type { StorageState } from '../../src/shared/trace'

/** A running instance of an app, fresh and seeded the same way every time. */
export interface AppInstance {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  origin: string
  /** Path of the app's home page under `origin` (`/`, `/doku.php`, `/w/index.php`, ...). */
  homePath: string
  /** The seeded user the workflows sign in as (fixed per app, so stored traces stay valid). */
  user: { name: string; password: string }
  /**
   * Signs the user in by script, without the recorder (a browser or plain HTTP, as the app needs),
   * and returns the cookies and localStorage a browser would hold afterwards. Used to start a
   * recording signed in and to save the site's login before a stored tool is run.
   */
  signIn(): Promise<StorageState>
  /**
   * Sends a request to the app outside Sitecall, as a person with curl would, signed in with
   * `session` when given. Answer keys use it to replay a target by hand and to read the app's
   * state after a write.
   */
  fetch(path: string, init?: RequestInit & { session?: StorageState }): Promise<Response>
  /** Stops the app and removes its data dir. Safe to call twice. */
  close(): Promise<void>
}

/** One app of the corpus. */
export interface AppDefinition {
  /** Folder name under `test/apps/` and `test/fixtures/apps/`: `dokuwiki`, `mediawiki`, ... */
  name: string
  /** What people call it ("DokuWiki"). */
  title: string
  /** Where it comes from and the version: `apt dokuwiki 0.0.20220731`, `npm node-red@4.1.8`. */
  source: string
  /** How it talks to its server, in one sentence: why it is in the corpus. */
  about: string
  /**
   * Why this app cannot start here, or null when it can: a missing apt package or binary, named
   * with the command that installs it. Checked before {@link start}, so a test can skip cleanly.
   */
  unavailable(): string | null
  /**
   * Starts a fresh instance on 127.0.0.1 (a free port) with its deterministic seed data, in a
   * temp data dir; resolves once the app answers. It stops by itself after `lifetimeMs`
   * (default 15 minutes) even if nobody calls close. Rejects, after cleaning up, on any failure.
   */
  start(options?: { lifetimeMs?: number }): Promise<AppInstance>
  workflows: Workflow[]
}

/** One thing a person does in the app, once, with the intent they would give Sitecall. */
export interface Workflow {
  /** Unique within the app, snake_case: `search_pages`, `rename_page`. */
  id: string
  /** What the person tells Sitecall, in their words, naming the value they use when there is one. */
  intent: string
  /**
   * The same intent written three other ways (issue 9 "Robustness to wording"): terse, chatty,
   * and without the value.
   */
  rewordings: { terse: string; chatty: string; withoutValue: string }
  /** Path (under the origin) the recording starts on. */
  startPath: string
  /** True: the recording starts signed in (the app's `signIn()` state). False: not signed in. */
  signedIn: boolean
  /**
   * The scripted person: does the workflow in the page, as a person would (clicks, typing,
   * picking), and waits until the app shows the result. Never calls the app's API directly.
   */
  play(page: Page, app: AppInstance): Promise<void>
  key: AnswerKey
}

/** A request named by method and URL path; `path` may be a RegExp when the path holds ids. */
export interface RequestKey {
  method: string
  path: string | RegExp
  /**
   * For APIs that put the operation in a query or form field (`action=edit`, `call=...`): the
   * field and its value that tell this request apart from others on the same path. A JSON body's
   * field may be a JSON path (`params[0]`); a list means every one of them must hold (an RPC
   * `method` and the command in its first argument).
   */
  operation?: { field: string; value: string } | Array<{ field: string; value: string }>
}

/**
 * What a correct tool for the workflow is, written by hand by replaying the target with a
 * changed value, never by running the compiler.
 */
export interface AnswerKey {
  /** The request the tool must send last (the one that answers the intent). */
  target: RequestKey
  /**
   * The values the person typed or picked that must become input slots, each with the value the
   * working-tools check calls the tool with instead. The check finds the tool's input whose
   * recorded example/default equals `recorded`. Empty when the tool takes no input.
   */
  inputs: Array<{
    recorded: string | number | boolean
    /** Values to call the tool with instead: one per run, never used twice (writes must differ). */
    changed: [string | number | boolean, string | number | boolean]
    /**
     * The person typed it into a password field, which the recorder seals: no tool can hold it,
     * so a required `writeOnly` input without a default is the one that carries it.
     */
    secret?: true
  }>
  /**
   * Requests whose answers the tool must read before the target (CSRF or revision tokens, ids
   * looked up by name), in any order. Empty when the target needs none beyond the saved login.
   */
  dependencies: RequestKey[]
  /** True when the target changes the app's state. */
  mutating: boolean
  /**
   * The file a tool's file input (JSON Schema `contentEncoding: 'base64'`) that holds no recorded
   * bytes (a plain HAR keeps none) is called with (upload workflows); such an input is not counted
   * as a required input missing from the key. The recording's tool uploads the recorded file on
   * the same instance first, so this may be another file, as writes must differ.
   */
  file?: Uint8Array
  /**
   * The saved login the working-tools check runs the tool with, when not the app's user: a
   * sign-in as another person (their password, and the TOTP seed of their second factor, Base32).
   */
  login?: { username: string; password: string; totpSeed?: string }
  /**
   * Sends the target by hand (with `app.fetch`, signed in with `session`) using the first changed
   * values, then runs {@link check} on what it got, and throws when the app does not answer as the workflow's result would. Proves the
   * key right: it runs against a fresh instance in the self-check, before any compiler does.
   */
  replayByHand(app: AppInstance, session: StorageState): Promise<void>
  /**
   * After the compiled tool ran through the engine with the changed values: returns null when the
   * run gave the right answer (a read: the changed value's data is in `result`; a write: a direct
   * read of the app, with `app.fetch`, shows the change), else one line saying what is wrong.
   * `used[i]` is the value the tool was called with for `inputs[i]` (one of its `changed`); the
   * check runs once with each, on one instance (the recorded trace's tool, then the HAR's).
   */
  check(
    app: AppInstance,
    run: { status: string; result: unknown },
    session: StorageState,
    used: Array<string | number | boolean>,
  ): Promise<string | null>
}
