/**
 * What the scripted person does in Privoxy's web interface, shared by the workflows. The pages'
 * own links and forms that name the interface's host (`//config.privoxy.org/...`: the main
 * menu, the show-url-info form, the redirect after every edit) lead nowhere in a browser that
 * does not use Privoxy as its proxy, so the person types the interface's address instead where
 * the page would send them there (NOTES.md). The editor's own links are relative and work.
 */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../types'

/** On the status page (`/show-status`), clicks `View` or `Edit` in the row of action file `name`. */
export async function openActionFile(page: Page, name: string, button: 'View' | 'Edit') {
  const escaped = name.replace('.', '\\.')
  const cell = page.locator('td').filter({ hasText: new RegExp(`^\\s*/\\S*/${escaped}\\s*$`) })
  const row = cell.locator('xpath=following-sibling::td[1]')
  await row.getByRole('link', { name: button, exact: true }).click()
  await page.waitForLoadState('domcontentloaded')
}

/** The editor's box of the section whose actions include `action` (`+block{Crypto miners.}`). */
export function sectionBox(page: Page, action: string) {
  return page.locator('table.framed', {
    has: page.locator('td.action', { hasText: action }),
  })
}

/** The row of pattern `pattern` in the editor's list. */
export function patternRow(page: Page, pattern: string) {
  return page.locator('td.indentbuttons', {
    hasText: new RegExp(`\\u00a0 ${pattern.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`),
  })
}

/**
 * Clicks `click` (an editor link whose script asks with a prompt or a confirm), answers the
 * dialog with `answer` (a prompt's text; a confirm is accepted), and waits for the answer to the
 * write it sends (`GET /<write>?...`). Privoxy answers a write with a redirect to
 * `//config.privoxy.org/edit-actions-list`, which this browser cannot reach: the person then opens
 * the editor's list again at the interface's address.
 */
export async function writeThroughDialog(
  page: Page,
  app: AppInstance,
  write: string,
  click: () => Promise<void>,
  answer?: string,
): Promise<void> {
  page.once('dialog', (dialog) => void dialog.accept(answer))
  const sent = page.waitForResponse((res) => new URL(res.url()).pathname === `/${write}`)
  const lost = redirectLost(page)
  await click()
  await sent
  await lost
  await reopenEditor(page, app)
}

/**
 * Resolves once the browser has given up on the redirect a write answers with
 * (`//config.privoxy.org/...` does not resolve here) and shows its error page.
 */
export async function redirectLost(page: Page): Promise<void> {
  await page.waitForEvent('requestfailed', {
    predicate: (req) => new URL(req.url()).hostname === 'config.privoxy.org',
    timeout: 15_000,
  })
  await page
    .waitForURL(
      (url) => url.protocol === 'chrome-error:' || url.hostname === 'config.privoxy.org',
      { timeout: 15_000 },
    )
    .catch(() => undefined)
  await page.waitForLoadState('domcontentloaded')
}

/** Types the address of user.action's editor, as after a write the person must. */
export async function reopenEditor(page: Page, app: AppInstance): Promise<void> {
  await page.goto(`${app.origin}/edit-actions-list?f=2`, { waitUntil: 'domcontentloaded' })
}
