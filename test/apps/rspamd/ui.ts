/**
 * What the scripted person does often in Rspamd's web UI: answer the login dialog, open a tab,
 * wait for the green notice the UI shows after a write.
 */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../types'

/**
 * Signs in from the UI's own dialog. Opened without a password, the UI asks `GET /stat`, gets
 * 401 and shows "Connect to Rspamd"; the person types the password and presses Enter, and the UI
 * checks it with `GET /auth` (the `Password` header) and shows the Status tab.
 */
export async function signInFromDialog(page: Page, app: AppInstance): Promise<void> {
  const password = page.locator('#connectPassword')
  await password.waitFor({ state: 'visible', timeout: 30_000 })
  await password.click()
  await password.pressSequentially(app.user.password, { delay: 40 })
  await page.keyboard.press('Enter')
  await page.locator('#mainUI').waitFor({ state: 'visible', timeout: 30_000 })
  // The Status tab is drawn once `GET /stat` answered: its counters show "Scanned".
  await page.locator('#statWidgets').getByText('Scanned').waitFor({ timeout: 30_000 })
}

/** Clicks a tab of the navigation bar by its label ("Symbols", "Scan/Learn", "History"...). */
export async function openTab(page: Page, label: string): Promise<void> {
  await page.locator('#navBar .nav-link', { hasText: label }).first().click()
}

/** Waits for the UI's notice (an alert at the top right) that says `text`. */
export async function waitForNotice(page: Page, text: string): Promise<void> {
  await page
    .locator('.notification-area .alert', { hasText: text })
    .first()
    .waitFor({ timeout: 30_000 })
}
