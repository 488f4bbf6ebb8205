/**
 * What the scripted person does in MailDev's web UI: get past the Basic prompt, pick an email by
 * its subject in the list, type in the search box, press the header's and the email's buttons.
 *
 * Signed-in recordings start on `/api/healthz` (the one path without the login) and the person
 * then opens the inbox with the login already in the browser; signed-out ones start on the inbox
 * itself, whose load meets the 401 first. NOTES.md says why.
 */
import type { Locator, Page, Response } from 'playwright-core'
import type { AppInstance } from '../types'

/** The path signed-in recordings start on: MailDev's health check, outside the login. */
export const HEALTH_PATH = '/api/healthz'

/**
 * Opens the inbox with the user's credentials in the browser and waits until the list shows.
 * Signed in, they are there before the first load, as a saved login gives them to the recorder
 * (Chromium answers the 401 by itself); signed out, the start page's load has just failed on the
 * 401 (the prompt) and this is the person's answer and the page loaded again, what the recorder's
 * `answerAuth` does with what the person typed.
 */
export async function openInbox(page: Page, app: AppInstance): Promise<void> {
  await page.context().setHTTPCredentials({
    username: app.user.name,
    password: app.user.password,
    origin: app.origin,
  })
  await page.goto(`${app.origin}/`, { waitUntil: 'domcontentloaded' })
  await page.getByTestId('email-list-item').first().waitFor()
}

/** The list's row of the email with `subject` (the subject line, exactly). */
export function emailRow(page: Page, subject: string): Locator {
  return page
    .getByTestId('email-list-item')
    .filter({ has: page.getByText(subject, { exact: true }) })
}

/** Resolves with the first answer to `method` on a path `path` matches, once it is answered. */
export function answered(page: Page, method: string, path: RegExp): Promise<Response> {
  return page.waitForResponse(
    (res) => res.request().method() === method && path.test(new URL(res.url()).pathname),
  )
}

/** Clicks the row of `subject` and waits until the reading pane shows that email. */
export async function openEmail(page: Page, subject: string): Promise<void> {
  await emailRow(page, subject).click()
  await page.getByTestId('email-subject').filter({ hasText: subject }).waitFor()
}

/** Types `text` into the search box, as a person does, one key at a time. */
export async function typeSearch(page: Page, text: string): Promise<void> {
  const box = page.getByTestId('search-input')
  await box.click()
  await box.pressSequentially(text, { delay: 70 })
}

/** The count line above the list ("19 emails • 3 unread", "2 of 19 emails" while searching). */
export function countLine(page: Page): Locator {
  return page.getByTestId('email-count')
}
