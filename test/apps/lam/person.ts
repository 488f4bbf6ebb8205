/**
 * What the scripted person does in LDAP Account Manager's pages, shared by the workflows: sign in
 * with the login form, open the Users or Groups list from the top menu, filter a list, open an
 * entry's editor from its row, switch the editor's tabs and save it.
 */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../types'

/**
 * Fills the login form (the admin is the one name in its list: only the password is typed) and
 * logs in; waits for the Users list LAM opens first.
 */
export async function logIn(page: Page, app: AppInstance): Promise<void> {
  await page.locator('#username').selectOption({ label: 'admin' })
  await page.locator('#passwd').fill(app.user.password)
  await page.locator('#btn_checklogin').click()
  await page.waitForURL(/lists\/list\.php\?type=user/)
  await page.locator('table.accountlist').waitFor()
}

/** Opens the top menu's Accounts and clicks `label` (Users, Groups); waits for that list. */
export async function openList(page: Page, label: 'Users' | 'Groups'): Promise<void> {
  const type = label === 'Users' ? 'user' : 'group'
  await page.locator('#lam-topnav a.lam-menu-entry', { hasText: /^Accounts$/ }).click()
  await page.locator(`#lam-navigation-types a[href$="lists/list.php?type=${type}"]`).click()
  await page.waitForURL(new RegExp(`list\\.php\\?type=${type}`))
  await page.locator('table.accountlist').waitFor()
}

/** Opens the Tools menu of the top bar and clicks its entry `label` ("Profile editor", ...). */
export async function openTool(page: Page, label: string): Promise<void> {
  await page.locator('#lam-topnav a.lam-menu-entry', { hasText: /^Tools$/ }).click()
  await page.locator('#lam-navigation-tools a', { hasText: label }).click()
}

/** The row of the account list that shows `name` (a uid or a group's cn) in a cell of its own. */
export function listRow(page: Page, name: string) {
  return page.locator('table.accountlist tbody tr', {
    has: page.locator('td', { hasText: new RegExp(`^${name}$`) }),
  })
}

/** Clicks the Edit icon of the list row that shows `name` and waits for the account editor. */
export async function editRow(page: Page, name: string): Promise<void> {
  await listRow(page, name).locator('a[title="Edit"]').click()
  await page.waitForURL(/account\/edit\.php/)
  await page.locator('#btn_accountContainerSaveAccount').waitFor()
}

/** Clicks the account editor's tab `moduleName` (`inetOrgPerson`, `posixAccount`, ...). */
export async function openEditorTab(page: Page, moduleName: string): Promise<void> {
  await page.locator(`button[name="form_main_${moduleName}"]`).click()
  await page.locator(`button.lam-vertical-tabs-selected[name="form_main_${moduleName}"]`).waitFor()
}

/** Clicks the editor's Save and waits for LAM's page saying the account was saved. */
export async function saveAccount(page: Page): Promise<void> {
  await page.locator('#btn_accountContainerSaveAccount').click()
  await page
    .getByText(/Account was (created|modified) successfully/)
    .first()
    .waitFor()
}
