/**
 * What the scripted person does in Gerbera's two web UIs.
 *
 * - The classic UI (`/`, index.html, from MediaTomb): a frameset. `leftF` holds the tree
 *   (Database or Filesystem, switched in `topleftF`), `toprightF` the selected folder's path and
 *   its action icons (add Item, edit, remove, change autoscan dir; in the Filesystem view add and
 *   add as autoscan dir), `rightF` the folder's items with their icons, and the forms (add/edit
 *   item, autoscan, login). Its calls carry `return_type=xml`.
 * - The new UI (`/gerbera.html`): one page with a login in the navbar, Database / File System
 *   in the menu, a tree and an item grid; it reads only, with JSON answers.
 *
 * Icons are links whose name is the image's alt text, as a screen reader reads them.
 */
import type { Frame, Locator, Page } from 'playwright-core'
import type { AppInstance } from '../../types'

/** The frames of the classic UI, by name. */
export type ClassicFrame = 'topF' | 'topleftF' | 'leftF' | 'toprightF' | 'rightF'

/** One frame of the classic UI (it exists once the frameset has loaded). */
export function frame(page: Page, name: ClassicFrame): Frame {
  const found = page.frame({ name })
  if (!found) throw new Error(`the classic UI has no frame ${name}`)
  return found
}

/** Every frame of the classic UI. */
const FRAMES: ClassicFrame[] = ['topF', 'topleftF', 'leftF', 'toprightF', 'rightF']

/**
 * Waits until the frameset has attached all its frames (a recording may start at
 * domcontentloaded of the frameset, before its frames exist).
 */
async function framesAttached(page: Page): Promise<void> {
  const deadline = Date.now() + 30_000
  while (FRAMES.some((name) => !page.frame({ name }))) {
    if (Date.now() > deadline) throw new Error('the classic UI did not load its frames')
    await page.waitForTimeout(100)
  }
}

/** Waits until the classic UI shows the Database tree (signed in). */
export async function classicReady(page: Page): Promise<void> {
  await framesAttached(page)
  await frame(page, 'leftF').locator('#titled0').waitFor()
}

/**
 * Signs in on the classic UI's login form (the right frame), clicks Login and waits for the
 * Database tree.
 */
export async function logInClassic(page: Page, app: AppInstance): Promise<void> {
  await framesAttached(page)
  const right = frame(page, 'rightF')
  await right.locator('form[name="login_form"] input[name="username"]').fill(app.user.name)
  await right.locator('form[name="login_form"] input[name="password"]').fill(app.user.password)
  await right.getByRole('button', { name: 'Login' }).click()
  await classicReady(page)
}

/** Switches the classic UI to the Database or the Filesystem view (the links top left). */
export async function switchView(page: Page, view: 'Database' | 'Filesystem'): Promise<void> {
  await frame(page, 'topleftF').getByRole('link', { name: view, exact: true }).click()
  await frame(page, 'leftF')
    .locator(view === 'Database' ? '#titled0' : '#titlef0')
    .waitFor()
}

/** The tree row (node) titled `title` among the direct children of `scope`. */
function treeRow(left: Frame, scope: Locator, title: string): Locator {
  const titled = left.locator('span[id^="title"]', { hasText: new RegExp(`^${escape(title)}$`) })
  return scope.locator(':scope > div[id^="node"]').filter({ has: titled })
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * In the classic UI's tree, opens each folder of `path` with its [+] (from the top of the view,
 * Database or Filesystem) and clicks the last one's name, as a person drills down to a folder;
 * waits until the right side shows that folder (its path in the top right frame).
 */
export async function openFolder(
  page: Page,
  view: 'Database' | 'Filesystem',
  path: string[],
): Promise<void> {
  const left = frame(page, 'leftF')
  let scope = left.locator(view === 'Database' ? '#noded0sub' : '#nodef0sub')
  for (const title of path.slice(0, -1)) {
    const row = treeRow(left, scope, title)
    await row.locator('img[id^="handler"]').click()
    scope = row.locator('xpath=following-sibling::div[1]')
    await scope.locator(':scope > div[id^="node"]').first().waitFor()
  }
  await treeRow(left, scope, path.at(-1)!).locator('span[id^="title"]').click()
  const shown = `/${view}/${path.join('/')}/`
  await frame(page, 'toprightF').locator('span.contText', { hasText: shown }).waitFor()
}

/** The row of the item (or file) `title` in the classic UI's right frame. */
export function itemRow(page: Page, title: string): Locator {
  const right = frame(page, 'rightF')
  const entry = right.locator('td.itemEntry', { hasText: new RegExp(`^${escape(title)}$`) })
  return right.locator('tr:visible', { has: entry })
}

/** Clicks an icon (add Item, edit, remove, change autoscan dir, ...) of the selected folder. */
export async function folderAction(page: Page, name: string): Promise<void> {
  const header = frame(page, 'toprightF').locator('div.topDiv:visible')
  await header.getByRole('link', { name, exact: true }).click()
}

/** Signs in with the new UI's navbar form and waits for the Logout button. */
export async function logInNew(page: Page, app: AppInstance): Promise<void> {
  await page.locator('#username').fill(app.user.name)
  await page.locator('#password').fill(app.user.password)
  await page.getByRole('button', { name: 'Login' }).click()
  await page.getByRole('button', { name: 'Logout' }).waitFor()
}

/**
 * Clicks an entry of the new UI's menu (Home, Database, File System). The entries are anchors
 * without href, so they have no link role: found by their text in the navbar.
 */
export async function openMenuNew(page: Page, entry: string): Promise<void> {
  await page.locator('nav').getByText(entry, { exact: true }).click()
}

/**
 * In the new UI's tree, clicks each folder of `path` in turn (a click opens the folder and lists
 * its items); waits for the grid of the last one.
 */
export async function openFolderNew(page: Page, path: string[]): Promise<void> {
  let scope = page.locator('#tree')
  for (const title of path) {
    // The folder's own <li>: its title is a direct child (an ancestor's is not).
    const item = scope
      .locator(`xpath=.//li[span[@class="folder-title" and normalize-space(.)="${title}"]]`)
      .first()
    await item.locator('xpath=./span[@class="folder-title"]').click()
    scope = item
  }
  const crumb = new RegExp(`^${escape(path.at(-1)!)}$`)
  await page.locator('#item-breadcrumb li', { hasText: crumb }).waitFor()
}
