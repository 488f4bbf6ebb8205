/**
 * What the scripted person does in the CUPS web interface: click the tabs of the header, click a
 * queue in the printer list, pick from a queue's Maintenance or Administration menu (each menu is
 * a form that submits itself on change), press the buttons in a job's row, fill the add-printer
 * wizard, and wait for the page CUPS answers with.
 */
import type { Page } from 'playwright-core'

/** Clicks a tab of the page header (`Printers`, `Jobs`, `Administration`) and waits for it. */
export async function openTab(
  page: Page,
  tab: 'Printers' | 'Jobs' | 'Administration',
): Promise<void> {
  await page.locator('.cups-header').getByRole('link', { name: tab, exact: true }).click()
  await page.getByRole('heading', { level: 1, name: tab }).waitFor()
}

/** Clicks queue `name` in the printer list and waits for its page. */
export async function clickPrinter(page: Page, name: string): Promise<void> {
  await page.locator('table.list').getByRole('link', { name, exact: true }).click()
  await page.waitForURL(new RegExp(`/printers/${name}$`))
  await page.getByRole('heading', { level: 2 }).filter({ hasText: name }).first().waitFor()
}

/**
 * Picks `label` from one of a queue page's two menus (`maintenance`, `administration`): the
 * menu's form submits itself when the choice changes (its ONCHANGE).
 */
export async function pickFromMenu(
  page: Page,
  menu: 'maintenance' | 'administration',
  label: string,
): Promise<void> {
  const form = page.locator(`form[name="${menu}"]`)
  await Promise.all([
    page.waitForNavigation({ waitUntil: 'domcontentloaded' }),
    form.locator('select[name="OP"]').selectOption({ label }),
  ])
}

/** Presses `button` ("Cancel Job", "Hold Job") in the row of the job titled `title`. */
export async function pressInJobRow(page: Page, title: string, button: string): Promise<void> {
  // The Name cell ends in &nbsp;: match the row by its text, the titles are unique.
  const row = page.locator('table.list tr').filter({ hasText: title })
  await row.getByRole('button', { name: button }).click()
}

/** Types `text` into the field `name` the way a person does: click, clear, type. */
export async function typeInto(page: Page, name: string, text: string): Promise<void> {
  const box = page.locator(`input[name="${name}"]`)
  await box.click()
  await box.fill('')
  await box.pressSequentially(text, { delay: 25 })
}

/** Presses the page's submit button labelled `label` and waits for the page it loads. */
export async function pressButton(page: Page, label: string): Promise<void> {
  await Promise.all([
    page.waitForNavigation({ waitUntil: 'domcontentloaded' }),
    page.getByRole('button', { name: label, exact: true }).first().click(),
  ])
}

/** Waits until the page's text holds `text` (CUPS's "has been ..." sentences). */
export async function waitForText(page: Page, text: string | RegExp): Promise<void> {
  await page.getByText(text).first().waitFor()
}
