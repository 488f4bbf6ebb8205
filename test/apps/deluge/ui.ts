/**
 * What the scripted person does often in Deluge's web UI (ExtJS 3): wait for the torrent list,
 * sign in from the login window, click a row by the torrent's name, use the toolbar, find a
 * window by its title.
 */
import type { Locator, Page } from 'playwright-core'

/** The torrent list's row of the torrent named `name`. */
export function row(page: Page, name: string): Locator {
  return page
    .locator('.x-grid3-row')
    .filter({ has: page.locator('.torrent-name', { hasText: name }) })
}

/** Waits until the list shows the torrent `name` (the UI is signed in and connected). */
export async function waitForList(
  page: Page,
  name = 'ubuntu-24.04-desktop-amd64.iso',
): Promise<void> {
  await row(page, name).waitFor({ timeout: 30_000 })
}

/**
 * Types the password into the login window the UI opens when signed out and clicks Login, then
 * waits for the torrent list (the web UI is already connected to its daemon).
 */
export async function signInFromLoginWindow(page: Page, password: string): Promise<void> {
  const field = page.locator('#_password')
  await field.waitFor({ timeout: 30_000 })
  // The window focuses (and selects) its field 300 ms after it shows: typing before that would
  // lose the first characters to the selection.
  await page.waitForFunction(() => document.activeElement?.id === '_password')
  await field.pressSequentially(password, { delay: 30 })
  await windowTitled(page, 'Login').getByRole('button', { name: 'Login', exact: true }).click()
  await waitForList(page)
}

/** Clicks the row of the torrent `name`, as a person picks it, and waits until it is selected. */
export async function pickRow(page: Page, name: string): Promise<void> {
  const r = row(page, name)
  await r.locator('.torrent-name').click()
  await page.locator('.x-grid3-row-selected .torrent-name', { hasText: name }).waitFor()
}

/** The main toolbar's button `label` (Add, Remove, Pause, Resume, Preferences...). */
export function toolbarButton(page: Page, label: string): Locator {
  return page.locator('.x-toolbar').first().getByRole('button', { name: label, exact: true })
}

/** The visible ExtJS window whose header says `title`. */
export function windowTitled(page: Page, title: string): Locator {
  return page
    .locator('.x-window:visible')
    .filter({ has: page.locator('.x-window-header-text', { hasText: new RegExp(`^${title}$`) }) })
}

/** Waits until the row of `name` shows `state` in its progress bar ("Paused 0.00%"). */
export async function waitForState(page: Page, name: string, state: string): Promise<void> {
  await row(page, name)
    .locator('.x-progress-text-back', { hasText: state })
    .waitFor({ timeout: 30_000 })
}
