/**
 * What the scripted person does in hledger-web's pages, shared by the workflows: type a query in
 * the search box, open the manage page from the wrench button, and fill the add-transaction
 * dialog (date, description, and account/amount rows).
 */
import type { Page } from 'playwright-core'

/** Types `query` in the search box above the journal or register and presses Enter. */
export async function search(page: Page, query: string): Promise<void> {
  const box = page.locator('#searchform input[name=q]')
  await box.click()
  await box.pressSequentially(query, { delay: 30 })
  await box.press('Enter')
  await page.waitForURL((url) => url.searchParams.get('q') === query)
}

/** Clicks the wrench button ("Manage journal files") and waits for the list of files. */
export async function openManage(page: Page): Promise<void> {
  await page.locator('a[title="Manage journal files"]').click()
  await page.waitForURL(/\/manage$/)
  await page.getByRole('heading', { name: "Your journal's files" }).waitFor()
}

/** One row of the add dialog: an account and, unless left for hledger to balance, an amount. */
export interface PostingRow {
  account: string
  amount?: string
}

/**
 * Opens "Add a transaction", fills date, description and one row per posting, typing as a person
 * does and clicking the next field (which closes the date picker and the suggestion lists; Escape
 * would close the whole dialog), clicks add and waits for the journal, where hledger-web lands
 * after saving.
 */
export async function addTransaction(
  page: Page,
  date: string,
  description: string,
  rows: PostingRow[],
): Promise<void> {
  await page.locator('#addformlink').click()
  const form = page.locator('#addform')
  await form.waitFor()
  const dateField = form.locator('input[name=date]')
  await dateField.click()
  await dateField.pressSequentially(date, { delay: 20 })
  const describe = form.locator('input[name=description]')
  await describe.click()
  await describe.pressSequentially(description, { delay: 20 })
  for (const [i, row] of rows.entries()) {
    const account = form.locator('input.account-input.tt-input').nth(i)
    await account.click()
    await account.pressSequentially(row.account, { delay: 20 })
    if (row.amount !== undefined) {
      const amount = form.locator('input.amount-input').nth(i)
      await amount.click()
      await amount.pressSequentially(row.amount, { delay: 20 })
    }
  }
  await form.getByRole('button', { name: 'add' }).click()
  await page.waitForURL(/\/journal/)
  await page.locator('table.transactionsreport', { hasText: description }).waitFor()
}
