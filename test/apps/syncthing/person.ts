/**
 * The scripted person's moves in the Syncthing GUI: answering the browser's login, waiting for
 * the dashboard, opening a folder's panel by its label, the folder and device dialogs.
 */
import type { Locator, Page } from 'playwright-core'
import type { AppInstance } from '../types'

/** Escapes a label for a RegExp that matches it whole. */
const exactly = (text: string): RegExp =>
  new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`)

/**
 * Waits until the dashboard shows the folders and their states (the first `/rest/db/status`
 * answers are in): every panel left its `Unknown` state.
 */
export async function waitForDashboard(page: Page): Promise<void> {
  await page.locator('#folders .panel-title-text').first().waitFor()
  await page.getByText('Up to Date').first().waitFor()
  await page.waitForFunction(() => {
    const statuses = [...document.querySelectorAll('#folders .panel-status')]
    return statuses.length > 0 && statuses.every((s) => !/unknown/i.test(s.textContent ?? ''))
  })
}

/**
 * Answers the browser's login as the person does: Syncthing 1.19 asks with HTTP Basic auth
 * (`401`, `WWW-Authenticate: Basic`), the browser's own dialog takes the user name and password
 * and loads the page again with them. A scripted browser has no dialog to type into, so the
 * credentials are given to the browser context for this origin (what Sitecall's recorder does
 * with the person's answer, see `httpAuthWatch.ts`) and the page is loaded again.
 */
export async function answerLogin(page: Page, app: AppInstance): Promise<void> {
  await page.context().setHTTPCredentials({
    username: app.user.name,
    password: app.user.password,
    origin: app.origin,
  })
  await page.goto(`${app.origin}/`, { waitUntil: 'domcontentloaded' })
  await waitForDashboard(page)
}

/** The panel of the folder labelled `label` in the folder list. */
export function folderPanel(page: Page, label: string): Locator {
  return page
    .locator('#folders > .panel')
    .filter({ has: page.locator('.panel-title-text', { hasText: exactly(label) }) })
}

/**
 * Clicks a folder's row in the list, which unfolds its details and buttons (unless they are
 * showing already: a second click would fold them).
 */
export async function openFolder(page: Page, label: string): Promise<Locator> {
  const panel = folderPanel(page, label)
  if (!(await panel.locator('.panel-collapse.in').count()))
    await panel.locator('.panel-heading').click()
  await panel.locator('.panel-collapse.in').waitFor()
  return panel
}

/** The folder dialog (add and edit). */
export function folderDialog(page: Page): Locator {
  return page.locator('#editFolder')
}

/** Unfolds a folder and clicks its Edit button; resolves once the dialog is open. */
export async function editFolder(page: Page, label: string): Promise<Locator> {
  const panel = await openFolder(page, label)
  await panel.getByRole('button', { name: 'Edit' }).click()
  const dialog = folderDialog(page)
  await dialog.locator('#folderLabel').waitFor()
  await page.waitForFunction(() => document.querySelector('#editFolder')?.classList.contains('in'))
  return dialog
}

/** Clicks a tab of an open dialog by its name. */
export async function openTab(dialog: Locator, name: string): Promise<void> {
  await dialog.locator('.nav-tabs a', { hasText: name }).click()
}

/** Replaces the text of an input as a person does: click, select all, type. */
export async function retype(field: Locator, text: string): Promise<void> {
  await field.click()
  await field.press('ControlOrMeta+a')
  await field.pressSequentially(text, { delay: 25 })
}

/**
 * Resolves once the page's own `PUT /rest/config` (every save of the GUI) has been answered 200.
 * Call it before the click that saves: the page updates its lists before the answer comes.
 */
export function configSaved(page: Page): Promise<unknown> {
  return page.waitForResponse(
    (res) =>
      res.request().method() === 'PUT' &&
      new URL(res.url()).pathname === '/rest/config' &&
      res.status() === 200,
  )
}

/** Clicks the Save button of an open dialog; resolves once it closed and the config was saved. */
export async function saveDialog(page: Page, dialog: Locator): Promise<void> {
  const saved = configSaved(page)
  await dialog.locator('.modal-footer').getByRole('button', { name: 'Save' }).click()
  await dialog.waitFor({ state: 'hidden' })
  await saved
}

/** The status text of a folder's panel (`Up to Date`, `Paused`, `Unshared`...). */
export function folderStatus(page: Page, label: string): Locator {
  return folderPanel(page, label).locator('.panel-status')
}
