/**
 * What the scripted person does in Tomcat's admin apps: on the server's front page, follow the
 * "Manager App" or "Host Manager" link (answering the Basic prompt when the browser holds no
 * login yet), then press a button in an application's or a host's row, or fill a form, and wait
 * for the page's "Message:" box to say OK.
 *
 * Every recording starts on the front page (`/`, the ROOT app, no login): NOTES.md says why.
 */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../types'

/** The two admin apps: the front page's link, the app's address, the heading it shows. */
const ADMIN = {
  manager: {
    link: 'Manager App',
    path: '/manager/html',
    heading: 'Tomcat Web Application Manager',
  },
  host: {
    link: 'Host Manager',
    path: '/host-manager/html',
    heading: 'Tomcat Virtual Host Manager',
  },
} as const

/**
 * Opens an admin app from the front page. Signed in: the browser already holds the login (as
 * Sitecall's recorder does from a saved login, `httpLogins`), so the person clicks the link and
 * Chromium answers the 401 by itself. Not signed in: the link's load meets Tomcat's 401 (Chromium,
 * asked nothing, fails it with ERR_INVALID_AUTH_CREDENTIALS: when the recorder asks the person),
 * then the person's answer is given to the browser and the page loaded again, as the recorder's
 * `answerAuth` does with what the person typed in the prompt.
 */
export async function openAdmin(
  page: Page,
  app: AppInstance,
  which: keyof typeof ADMIN,
  signedIn: boolean,
): Promise<void> {
  const admin = ADMIN[which]
  const credentials = { username: app.user.name, password: app.user.password }
  if (signedIn) {
    await page.context().setHTTPCredentials(credentials)
    await page.getByRole('link', { name: admin.link, exact: true }).click()
  } else {
    const first = await page
      .goto(`${app.origin}${admin.path}`, { waitUntil: 'domcontentloaded' })
      .then((res) => res?.status() ?? 0)
      .catch(() => 401)
    if (first !== 401) throw new Error(`${admin.path} did not ask for a login (${first})`)
    await page.context().setHTTPCredentials(credentials)
    await page.goto(`${app.origin}${admin.path}`, { waitUntil: 'domcontentloaded' })
  }
  await page.getByText(admin.heading, { exact: true }).first().waitFor()
}

/** Waits until the page's "Message:" box starts with `text` (Tomcat's `OK - ...`). */
export async function messageShown(page: Page, text: string): Promise<void> {
  await page.locator('pre').filter({ hasText: text }).first().waitFor()
}

/** The Manager's first row of the application at `path` (its link names the path). */
function appRow(page: Page, path: string) {
  return page
    .locator('tr')
    .filter({ has: page.getByRole('link', { name: path, exact: true }) })
    .last()
}

/** Presses `button` (Start, Stop, Reload, Undeploy) in the row of the application at `path`. */
export async function pressAppButton(page: Page, path: string, button: string): Promise<void> {
  await appRow(page, path).getByRole('button', { name: button, exact: true }).click()
}

/**
 * Types `minutes` into the "with idle ≥ … minutes" box of the application at `path` (the row
 * under its buttons) and presses "Expire sessions".
 */
export async function expireIdle(page: Page, path: string, minutes: number): Promise<void> {
  const below = appRow(page, path).locator('xpath=following-sibling::tr[1]')
  const box = below.locator('input[name="idle"]')
  await box.fill('')
  await box.pressSequentially(String(minutes), { delay: 40 })
  await below.getByRole('button', { name: 'Expire sessions' }).click()
}

/** Presses `button` (Remove, Stop, Start) in Host Manager's row of `host`. */
export async function pressHostButton(page: Page, host: string, button: string): Promise<void> {
  await page
    .locator('tr')
    .filter({ has: page.getByRole('link', { name: host, exact: true }) })
    .last()
    .getByRole('button', { name: button, exact: true })
    .click()
}
