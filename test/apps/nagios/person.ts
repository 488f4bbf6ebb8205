/**
 * What the scripted person does in Nagios' web interface: open it (answering the Basic prompt or
 * already holding the login), use the menu frame on the left (its links and its Quick Search
 * box), click rows and command links in the main frame, fill a command's form and Commit it.
 *
 * Every recording starts on the public landing page (`/`, the one page without the prompt;
 * NOTES.md says why) and the person then opens `/nagios4/`, Nagios' own frames page: the menu
 * (`side.php`) in the frame `side`, the pages it opens in the frame `main`.
 */
import type { Frame, FrameLocator, Page } from 'playwright-core'
import type { AppInstance } from '../types'
import { CGI, HTML } from './seed'

/** The addresses of the menu links the workflows click. */
export const MENU = {
  hosts: `${CGI}/status.cgi?hostgroup=all&style=hostdetail`,
  services: `${CGI}/status.cgi?host=all`,
  serviceProblems: `${CGI}/status.cgi?host=all&servicestatustypes=28`,
  comments: `${CGI}/extinfo.cgi?type=3`,
}

/** What cmd.cgi says once it wrote a command to Nagios' command file. */
const SUBMITTED = 'Your command request was successfully submitted to Nagios'

/** The two frames of the Nagios page. */
export interface NagiosPage {
  side: FrameLocator
  main: FrameLocator
  /** The main frame itself, to wait for the page it navigates to. */
  mainFrame: Frame
}

/** Waits until the frames page is up: the menu shows its Quick Search box, the home page its logo. */
async function framesShown(page: Page): Promise<NagiosPage> {
  const side = page.frameLocator('frame[name="side"]')
  const main = page.frameLocator('frame[name="main"]')
  await side.locator('input[name="host"]').waitFor()
  await main.locator('#mainlogo').waitFor()
  const mainFrame = page.frame({ name: 'main' })
  if (!mainFrame) throw new Error('the Nagios page has no main frame')
  return { side, main, mainFrame }
}

/**
 * Opens Nagios as a browser that already holds the login: the context has the user's credentials
 * before the page is asked for, as Sitecall's recorder has them from a saved login, so Chromium
 * answers the 401 by itself and later requests carry `Authorization: Basic`.
 */
export async function openSignedIn(page: Page, app: AppInstance): Promise<NagiosPage> {
  await page.context().setHTTPCredentials({
    username: app.user.name,
    password: app.user.password,
    origin: app.origin,
  })
  await page.getByRole('link', { name: 'Nagios Core' }).click()
  return framesShown(page)
}

/**
 * Opens Nagios not signed in: the person clicks the landing page's link, Apache answers 401
 * (Chromium, asked nothing, fails the load with ERR_INVALID_AUTH_CREDENTIALS, which is when the
 * recorder asks the person), then the person's answer is given to the browser and the page is
 * loaded again: what the recorder's `answerAuth` does with what the person typed in the prompt.
 */
export async function openAnsweringPrompt(page: Page, app: AppInstance): Promise<NagiosPage> {
  const first = await page
    .goto(`${app.origin}${HTML}/`, { waitUntil: 'domcontentloaded' })
    .then((res) => res?.status() ?? 0)
    .catch(() => 401)
  if (first !== 401) throw new Error(`Nagios did not ask for a login (${first})`)
  await page.context().setHTTPCredentials({
    username: app.user.name,
    password: app.user.password,
    origin: app.origin,
  })
  await page.goto(`${app.origin}${HTML}/`, { waitUntil: 'domcontentloaded' })
  return framesShown(page)
}

/** Waits until the main frame shows a page whose URL matches `url` and that holds `text`. */
async function mainShows(n: NagiosPage, url: RegExp, text: string): Promise<void> {
  await n.mainFrame.waitForURL(url)
  await n.main.getByText(text).first().waitFor()
}

/**
 * Clicks the menu link whose address is `href` (the menu has two "Services" and two "Hosts"
 * links: under Current Status and under Problems) and waits for its page in the main frame.
 */
export async function clickMenu(
  n: NagiosPage,
  label: string,
  href: string,
  shows: string,
): Promise<void> {
  await n.side
    .getByRole('link', { name: label, exact: true })
    .and(n.side.locator(`a[href="${href}"]`))
    .click()
  await n.mainFrame.waitForURL((url) => `${url.pathname}${url.search}` === href)
  await n.main.getByText(shows).first().waitFor()
}

/** Types `host` into the menu's Quick Search box and presses Enter; waits for its status page. */
export async function quickSearch(n: NagiosPage, host: string): Promise<void> {
  const box = n.side.locator('input[name="host"]')
  await box.click()
  await box.pressSequentially(host, { delay: 40 })
  await box.press('Enter')
  await mainShows(n, /status\.cgi\?navbarsearch=1/, `Service Status Details For Host '${host}'`)
}

/** Clicks a host's name in a status list; waits for its host page. */
export async function openHost(n: NagiosPage, host: string): Promise<void> {
  await n.main.locator(`a[href="extinfo.cgi?type=1&host=${host}"]`).first().click()
  await mainShows(n, /extinfo\.cgi\?type=1/, 'Host Commands')
}

/** Clicks `service` in `host`'s rows of a status list; waits for the service's page. */
export async function openService(n: NagiosPage, host: string, service: string): Promise<void> {
  const href = `extinfo.cgi?type=2&host=${host}&service=${service.replace(/ /g, '+')}`
  await n.main.locator(`a[href="${href}"]`).click()
  await mainShows(n, /extinfo\.cgi\?type=2/, 'Service Commands')
}

/** Clicks a command link of a host or service page; waits for the command's form. */
export async function openCommand(n: NagiosPage, label: string): Promise<void> {
  await n.main.getByRole('link', { name: label, exact: true }).click()
  await mainShows(n, /cmd\.cgi\?cmd_typ=/, 'Commit')
}

/** Types into a form field of the command form, replacing what it held. */
export async function retype(n: NagiosPage, name: string, value: string): Promise<void> {
  const box = n.main.locator(`input[name="${name}"]`)
  await box.click()
  await box.fill('')
  await box.pressSequentially(value, { delay: 25 })
}

/** Presses Commit and waits for cmd.cgi's "successfully submitted". */
export async function commit(n: NagiosPage): Promise<void> {
  await n.main.getByRole('button', { name: 'Commit' }).click()
  await n.main.getByText(SUBMITTED).waitFor()
}
