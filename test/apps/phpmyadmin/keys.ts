/**
 * What the answer keys of phpMyAdmin do by hand: read the session's CSRF token from a page, post
 * a form as the UI's XHR does, and read the database itself (as root over the instance's private
 * socket) to see what a tool changed.
 */
import { execFile } from 'node:child_process'
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'
import { ROOT_PASSWORD } from './seed'
import { SOCKETS } from './server'

/** The rows `sql` returns on the instance's database (tab-separated cells, no header). */
export function dbRows(app: AppInstance, sql: string): Promise<string[][]> {
  const socket = SOCKETS.get(app.origin)
  if (!socket) return Promise.reject(new Error(`no database socket for ${app.origin}`))
  return new Promise((resolve, reject) => {
    execFile(
      '/usr/bin/mariadb',
      [
        '--no-defaults',
        `--socket=${socket}`,
        '-uroot',
        `-p${ROOT_PASSWORD}`,
        '-N',
        '-B',
        '-e',
        sql,
      ],
      { timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${sql}: ${stderr || String(error)}`))
        else
          resolve(
            stdout
              .split('\n')
              .filter((l) => l !== '')
              .map((l) => l.split('\t')),
          )
      },
    )
  })
}

/** The session's CSRF token, read from the home page as every page carries it. */
export async function pageToken(app: AppInstance, session: StorageState): Promise<string> {
  const res = await app.fetch('/index.php?route=/', { session })
  const html = await res.text()
  const token = /name="token" value="([0-9a-f]+)"/.exec(html)?.[1]
  if (res.status !== 200 || !token) throw new Error(`no token on the home page (${res.status})`)
  return token
}

/**
 * Posts `fields` to `path` as the UI's XHRs do (`ajax_request=true`, the session's token), and
 * returns phpMyAdmin's JSON answer; throws when it says the request failed.
 */
export async function postAjax(
  app: AppInstance,
  session: StorageState,
  path: string,
  fields: Array<[string, string]>,
): Promise<{ success?: boolean; message?: string; error?: string }> {
  const token = await pageToken(app, session)
  const body = new URLSearchParams([...fields, ['ajax_request', 'true'], ['token', token]])
  const res = await app.fetch(path, {
    method: 'POST',
    session,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-requested-with': 'XMLHttpRequest',
    },
    body,
  })
  const text = await res.text()
  let json: { success?: boolean; message?: string; error?: string }
  try {
    json = JSON.parse(text) as typeof json
  } catch {
    throw new Error(`${path} answered ${res.status} without JSON: ${text.slice(0, 200)}`)
  }
  if (res.status !== 200 || json.success === false)
    throw new Error(`${path} failed: ${(json.error ?? text).slice(0, 300)}`)
  return json
}

/** A run's result as one searchable string (HTML-escaped text unescaped for the common cases). */
export function resultText(result: unknown): string {
  const raw = typeof result === 'string' ? result : JSON.stringify(result ?? '')
  return raw
    .replace(/\\u0027/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
}

/** Throws `message` when `problem` is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

/**
 * A read's check: null when the run's result holds the text `expected` lists for the value the
 * tool was called with, and none of the texts of the other values (so a tool that ignored its
 * input and answered the recorded query does not pass).
 */
export function resultHolds(
  result: unknown,
  expected: Record<string, string>,
  used: string | number | boolean | undefined,
): string | null {
  const value = String(used)
  const want = expected[value]
  if (!want) return `no expectation for ${value}`
  const text = resultText(result)
  if (!text.includes(want)) return `the result lacks ${want} (asked for ${value})`
  for (const [other, theirs] of Object.entries(expected))
    if (other !== value && text.includes(theirs))
      return `the result holds ${theirs}, the answer for ${other}, not ${value}`
  return null
}
