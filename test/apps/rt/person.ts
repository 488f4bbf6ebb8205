/**
 * What the scripted person does in Request Tracker's pages, shared by the workflows: open an entry
 * of the top menu or of a ticket's page menu (RT draws them as hover menus), pick an option of a
 * drop-down (RT draws every `<select>` as a bootstrap-select: a button next to the hidden select
 * and a list that opens under it), type a message in the rich-text editor (CKEditor, an iframe),
 * open a ticket from a list by its subject, and wait for the messages a save shows.
 */
import type { Page } from 'playwright-core'

/**
 * Opens the top menu's `ids` in turn (`li-admin`, `li-admin-users`, `li-admin-users-create`):
 * hovers each but the last, which is clicked.
 */
export async function openMenu(page: Page, ...ids: string[]): Promise<void> {
  for (const [i, id] of ids.entries()) {
    const link = page.locator(`li#${id} > a`)
    if (i < ids.length - 1) await link.hover()
    else await link.click()
  }
}

/** Opens the ticket page's Actions menu and clicks `item` (Reply, Comment, Resolve, ...). */
export async function ticketAction(page: Page, item: string): Promise<void> {
  await page.locator('li#li-page-actions > a').hover()
  await page
    .locator('li#li-page-actions ul a', { hasText: new RegExp(`^\\s*${item}\\s*$`) })
    .click()
}

/**
 * Opens the drop-down drawn for the `<select name=...>` `name` and picks the option whose text
 * starts with `label` (RT's owner lists read "alice (Alice Martin)").
 */
export async function pickOption(page: Page, name: string, label: string): Promise<void> {
  const picker = page.locator('div.bootstrap-select', {
    has: page.locator(`select[name="${name}"]`),
  })
  await picker.locator('button.dropdown-toggle').click()
  await picker
    .locator('.dropdown-menu a.dropdown-item', { hasText: new RegExp(`^${label}(\\s|$)`) })
    .first()
    .click()
}

/** Clicks into the rich-text editor (the first on the page) and types `text`. */
export async function typeMessage(page: Page, text: string): Promise<void> {
  const body = page.frameLocator('iframe.cke_wysiwyg_frame').first().locator('body')
  await body.click()
  await body.pressSequentially(text, { delay: 10 })
}

/** Clicks the link of the ticket whose subject is `subject` (in a list of the current page). */
export async function openTicket(page: Page, subject: string): Promise<void> {
  await page.getByRole('link', { name: subject, exact: true }).first().click()
  await page.waitForURL(/\/Ticket\/Display\.html/)
}

/** Waits for RT's result box holding `text` after a save ("Ticket 13 created", ...). */
export async function resultShown(page: Page, text: string | RegExp): Promise<void> {
  await page.locator('.results, #body .action-results', { hasText: text }).first().waitFor()
}
