/**
 * How the scripted person moves through phpLDAPadmin: the tree on the left (an entry's +/- icon
 * loads its children by XHR, its name loads the entry into the right-hand frame by XHR), the
 * server's icon links (search, export...), and the login form.
 */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../../types'

/** The right-hand frame, where every page the tree or a link opens is shown. */
export const BODY = '#ajBODY'

/**
 * Clicks the +/- icon of `dn` in the tree and waits until its children are drawn (the tree draws
 * them from `cmd=draw_tree_node`).
 */
export async function expandNode(page: Page, dn: string): Promise<void> {
  const icon = page
    .locator(`a[onclick*="opencloseTreeNode"][onclick*="dn=${encodeURIComponent(dn)}&"]`)
    .first()
  const drawn = page.waitForResponse((r) => r.url().includes('cmd=draw_tree_node'))
  await icon.click()
  await drawn
  await page.waitForLoadState('networkidle')
}

/** Clicks the name of `dn` in the tree and waits until the entry's page shows its DN. */
export async function openEntry(page: Page, dn: string): Promise<void> {
  await page.locator(`#ajSID_1_nodes a.phplm[title="${dn}"]`).first().click()
  await page.locator(`${BODY} h3.subtitle`).filter({ hasText: dn }).first().waitFor()
  await page.waitForLoadState('networkidle')
}

/** Expands the tree from the top down to `parent` and opens `dn`, as a person clicks through. */
export async function pickInTree(page: Page, path: string[], dn: string): Promise<void> {
  for (const node of path) await expandNode(page, node)
  await openEntry(page, dn)
}

/** Clicks one of the server's icon links (its title is "<Name> Example Directory"). */
export async function serverLink(page: Page, name: string): Promise<void> {
  await page.getByTitle(`${name} Example Directory`, { exact: true }).first().click()
  await page.waitForLoadState('networkidle')
}

/**
 * Signs in as a person does: the tree's "login" link, the admin DN and password typed into the
 * login form, Authenticate; waits until the tree shows who is logged in. phpLDAPadmin fails about
 * one login in fifty with a blank HTTP 500 under PHP 8.2, and that PHP session answers 500 from
 * then on (see NOTES.md): the person then starts afresh (no cookies, as a new private window) and
 * logs in again, once.
 */
export async function logIn(page: Page, app: AppInstance): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    await page.getByTitle('Login to Example Directory').first().click()
    await page.locator('#login').waitFor()
    await page.locator('#login').fill(app.user.name)
    await page.locator('#password').fill(app.user.password)
    const answer = page.waitForResponse(
      (r) => r.url().endsWith('/cmd.php') && r.request().method() === 'POST',
    )
    await page.getByRole('button', { name: 'Authenticate' }).click()
    const status = (await answer).status()
    if (status < 500 || attempt >= 1) break
    await page.context().clearCookies()
    await page.goto(`${app.origin}/index.php`)
  }
  await page.getByText('Logged in as:').first().waitFor()
  await page.waitForLoadState('networkidle')
}
