import type { Locator, Page } from 'playwright-core'

/** The tree's row of `name`, by its link (the UI shows one row per file or folder). */
export function row(page: Page, name: string): Locator {
  return page
    .locator('#notebook_list .list_item')
    .filter({ has: page.getByRole('link', { name, exact: true }) })
}

/** Waits for the tree to list `name`, then ticks its checkbox, as a person selects a row. */
export async function selectRow(page: Page, name: string): Promise<void> {
  const item = row(page, name)
  await item.waitFor()
  await item.locator('input[type=checkbox]').check()
}

/** The open modal dialog (rename, delete confirmation). */
export function dialog(page: Page): Locator {
  return page.locator('.modal-dialog')
}
