/**
 * What the scripted person does in Radicale's web UI (`/.web/`): sign in with its login form,
 * then work in the list of collections (each one a card with its title, type, URL link, Edit and
 * Delete), the Create form, the Edit form, the Delete question and the Upload button.
 *
 * The web UI keeps the login only in the page's memory, so every load of `/.web/` starts at its
 * login form: a person signs in there on every visit, saved browser login or not (NOTES.md).
 */
import type { Locator, Page } from 'playwright-core'
import type { AppInstance } from '../types'
import type { CalendarFile } from './seed'

/** True for the web UI's list `PROPFIND` of the signed-in user's collections. */
function isListAnswer(app: AppInstance) {
  const path = `/${app.user.name}/`
  return (res: { request(): { method(): string }; url(): string; status(): number }) =>
    res.request().method() === 'PROPFIND' && new URL(res.url()).pathname === path
}

/**
 * Signs in with the web UI's login form (Username, Password, Next) and waits until the list of
 * collections is shown. `savedLogin`: the browser already holds the site's Basic login (what
 * Sitecall's recorder is given from a saved login, its `httpLogins`); the form still has to be
 * filled, since the page asks on every load.
 */
export async function signInWithForm(
  page: Page,
  app: AppInstance,
  options: { savedLogin: boolean },
): Promise<void> {
  if (options.savedLogin)
    await page
      .context()
      .setHTTPCredentials({ username: app.user.name, password: app.user.password })
  const scene = page.locator('#loginscene')
  await scene.getByPlaceholder('Username').waitFor()
  await scene.getByPlaceholder('Username').fill(app.user.name)
  await scene.getByPlaceholder('Password').fill(app.user.password)
  const listed = page.waitForResponse(isListAnswer(app))
  await scene.getByRole('button', { name: 'Next' }).click()
  await listed
  await listShown(page)
}

/** Waits until the Collections scene shows its cards. */
async function listShown(page: Page): Promise<void> {
  await page.locator('#collectionsscene').getByRole('heading', { name: 'Collections' }).waitFor()
  await page.locator('#collectionsscene article:not(.hidden)').first().waitFor()
}

/** The card of the collection titled `title` in the list. */
function card(page: Page, title: string): Locator {
  const exact = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
  return page
    .locator('#collectionsscene article:not(.hidden)')
    .filter({ has: page.locator('[data-name="title"]', { hasText: exact }) })
}

/** Clicks Edit on `title`'s card and waits for the Edit form. */
async function openEdit(page: Page, title: string): Promise<Locator> {
  await card(page, title).getByRole('link', { name: 'Edit' }).click()
  const form = page.locator('#editcollectionscene')
  await form.getByRole('heading', { name: 'Edit collection' }).waitFor()
  return form
}

/** Types `value` into a form's field the way a person replaces its text. */
async function retype(field: Locator, value: string): Promise<void> {
  await field.click()
  await field.fill(value)
}

/** Presses the form's submit button (`Save`, `Create`) and waits until the list shows again. */
async function submitAndWaitForList(
  page: Page,
  app: AppInstance,
  form: Locator,
  button: string,
): Promise<void> {
  const listed = page.waitForResponse(isListAnswer(app))
  await form.getByRole('button', { name: button }).click()
  await listed
  await listShown(page)
}

/** Edit → types a new Title → Save; waits until the list shows the new title. */
export async function renameCollection(
  page: Page,
  app: AppInstance,
  title: string,
  newTitle: string,
): Promise<void> {
  const form = await openEdit(page, title)
  await retype(form.locator('[data-name="displayname"]'), newTitle)
  await submitAndWaitForList(page, app, form, 'Save')
  await card(page, newTitle).waitFor()
}

/** Edit → picks a new Color → Save; waits until the card shows it. */
export async function recolorCollection(
  page: Page,
  app: AppInstance,
  title: string,
  color: string,
): Promise<void> {
  const form = await openEdit(page, title)
  await form.locator('[data-name="color"]').fill(color)
  await submitAndWaitForList(page, app, form, 'Save')
  await card(page, title)
    .locator(`[data-name="color"][style*="${hexToRgb(color)}"]`)
    .waitFor()
}

/** `#rrggbb` as the browser writes it in a style attribute: `rgb(r, g, b)`. */
function hexToRgb(hex: string): string {
  const n = (i: number) => parseInt(hex.slice(i, i + 2), 16)
  return `rgb(${n(1)}, ${n(3)}, ${n(5)})`
}

/** What the Create form is filled with. */
export interface NewCollection {
  title: string
  description: string
  /** The Type menu's label: `calendar`, `addressbook`, ... */
  type: string
  /** `#rrggbb`, or undefined to keep the color the form proposes. */
  color?: string
}

/**
 * Create new addressbook or calendar → fills Title, Description, picks Type (and Color) →
 * Create; waits until the list shows the new collection.
 */
export async function createCollection(
  page: Page,
  app: AppInstance,
  c: NewCollection,
): Promise<void> {
  await page.getByRole('link', { name: 'Create new addressbook or calendar' }).click()
  const form = page.locator('#createcollectionscene')
  await form.getByRole('heading', { name: 'Create new collection' }).waitFor()
  await retype(form.locator('[data-name="displayname"]'), c.title)
  await retype(form.locator('[data-name="description"]'), c.description)
  await form.locator('[data-name="type"]').selectOption({ label: c.type })
  if (c.color) await form.locator('[data-name="color"]').fill(c.color)
  await submitAndWaitForList(page, app, form, 'Create')
  await card(page, c.title).waitFor()
}

/** Delete on `title`'s card → Yes; waits until the list no longer shows it. */
export async function deleteCollection(page: Page, app: AppInstance, title: string): Promise<void> {
  await card(page, title).getByRole('link', { name: 'Delete' }).click()
  const scene = page.locator('#deletecollectionscene')
  await scene.getByRole('heading', { name: 'Delete collection' }).waitFor()
  const listed = page.waitForResponse(isListAnswer(app))
  await scene.getByRole('button', { name: 'Yes' }).click()
  await listed
  await listShown(page)
  await card(page, title).waitFor({ state: 'detached' })
}

/**
 * Upload addressbook or calendar → picks `file` in the file chooser; waits until the upload
 * finished and the list shows the calendar (titled by the file's X-WR-CALNAME).
 */
export async function uploadCalendar(
  page: Page,
  app: AppInstance,
  file: CalendarFile,
): Promise<void> {
  const chooser = page.waitForEvent('filechooser')
  await page.getByRole('link', { name: 'Upload addressbook or calendar' }).click()
  const listed = page.waitForResponse(isListAnswer(app))
  await (
    await chooser
  ).setFiles({
    name: file.fileName,
    mimeType: 'text/calendar',
    buffer: Buffer.from(file.bytes),
  })
  await listed
  await listShown(page)
  await card(page, file.title).waitFor()
}

/**
 * Clicks the URL link of `title`'s card: Radicale answers the whole collection as an
 * attachment, so the browser downloads it (`Work.ics`) and the page stays. Waits for the file.
 */
export async function downloadCollection(page: Page, title: string): Promise<void> {
  const download = page.waitForEvent('download')
  await card(page, title).locator('a[data-name="url"]').click()
  const file = await download
  // Read to the end, so the download (and its request) is over before the recording stops.
  await file.path()
}
