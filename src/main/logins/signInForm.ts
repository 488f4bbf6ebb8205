import type { Page } from 'playwright-core'
import { SECRET_FIELD_NAME } from '../recorder'

/** Which login fields a page shows (each marked `data-sitecall-login="<kind>"` on the page). */
export interface LoginFields {
  username: boolean
  password: boolean
  otp: boolean
}

/** What filling a login form came to. */
export type FillOutcome =
  /** No password or one-time-code field is visible. */
  | 'no_login_form'
  /** The site asked a one-time code and no TOTP code could be made. */
  | 'mfa_required'
  /** After submitting, the password field is still there (wrong password, or a captcha). */
  | 'rejected'
  | 'signed_in'

/** Values an automatic sign-in types; `totp` makes the current code (otplib, RFC 6238). */
export interface FillValues {
  username: string
  password: string
  totp: (() => Promise<string>) | null
}

/** How long one submit may take to leave the login page, ms. */
const SUBMIT_MS = 15_000

/*
 * In the page: finds the visible login fields by type, `autocomplete` and name (the recorder's
 * own secret-field rules), and marks them. The username is the `username`/`email` field, else the
 * last visible text or email input before the password field in its form.
 */
const FIND_FIELDS = `(() => {
  const SECRET_NAME = new RegExp(${JSON.stringify(SECRET_FIELD_NAME.source)}, 'i')
  const OTP_AUTOCOMPLETE = /(^|\\s)one-time-code(\\s|$)/i
  const OTP_NAME = /otp|one.?time|totp|2fa|mfa|^code$|verification.?code/i
  const visible = (el) => {
    const r = el.getBoundingClientRect()
    const s = getComputedStyle(el)
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none' && !el.disabled
  }
  for (const el of document.querySelectorAll('[data-sitecall-login]')) el.removeAttribute('data-sitecall-login')
  const inputs = [...document.querySelectorAll('input')].filter(visible)
  const name = (el) => (el.getAttribute('name') || '') + ' ' + (el.id || '')
  const password = inputs.find((el) => el.type === 'password')
  const otp = password ? null : inputs.find((el) =>
    OTP_AUTOCOMPLETE.test(el.getAttribute('autocomplete') || '') ||
    (['text', 'tel', 'number', ''].includes(el.type) && OTP_NAME.test(name(el))))
  let username = null
  if (password) {
    const scope = password.form ? [...password.form.elements].filter((e) => e.tagName === 'INPUT' && visible(e)) : inputs
    const texts = scope.filter((el) => ['text', 'email', 'tel', ''].includes(el.type) && !SECRET_NAME.test(name(el)))
    username = texts.find((el) => /(^|\\s)(username|email)(\\s|$)/i.test(el.getAttribute('autocomplete') || '')) ||
      texts.find((el) => el.type === 'email' || /user|email|login|account/i.test(name(el))) ||
      texts.filter((el) => el.compareDocumentPosition(password) & Node.DOCUMENT_POSITION_FOLLOWING).pop() || null
  }
  if (username) username.setAttribute('data-sitecall-login', 'username')
  if (password) password.setAttribute('data-sitecall-login', 'password')
  if (otp) otp.setAttribute('data-sitecall-login', 'otp')
  return { username: !!username, password: !!password, otp: !!otp }
})()`

/** Marks and reports the visible login fields of the page (no field: all false). */
export async function findLoginFields(page: Page): Promise<LoginFields> {
  return page
    .evaluate(FIND_FIELDS)
    .then((found) => found as LoginFields)
    .catch(() => ({ username: false, password: false, otp: false }))
}

const field = (page: Page, kind: keyof LoginFields) =>
  page.locator(`[data-sitecall-login="${kind}"]`).first()

/** Submits the field's form (Enter) and waits until the field left the page and it loaded. */
async function submitFrom(page: Page, kind: keyof LoginFields): Promise<void> {
  const input = field(page, kind)
  await input.press('Enter')
  await input.waitFor({ state: 'detached', timeout: SUBMIT_MS }).catch(() => undefined)
  await page.waitForLoadState('load', { timeout: SUBMIT_MS }).catch(() => undefined)
}

/**
 * Fills and submits the page's login form with `values` ("automatic re-login" and
 * browse autofill): username and password, then, when a one-time-code field follows, the current
 * TOTP code. Values go to the page through Playwright's `fill` only; nothing here logs them.
 */
export async function fillLoginForm(page: Page, values: FillValues): Promise<FillOutcome> {
  let fields = await findLoginFields(page)
  if (!fields.password && !fields.otp) return 'no_login_form'
  if (fields.password) {
    if (fields.username) await field(page, 'username').fill(values.username)
    await field(page, 'password').fill(values.password)
    await submitFrom(page, 'password')
    fields = await findLoginFields(page)
  }
  if (fields.otp) {
    if (!values.totp) return 'mfa_required'
    await field(page, 'otp').fill(await values.totp())
    await submitFrom(page, 'otp')
    fields = await findLoginFields(page)
  }
  if (fields.password || fields.otp) return 'rejected'
  return 'signed_in'
}

/** The binding the capture script calls (one in-memory callback per sign-in flow). */
export const CAPTURE_BINDING = '__sitecallLoginCapture'

/** What the capture script reports on a submit: values only from a password form. */
export interface CapturedSubmit {
  kind: 'password' | 'otp'
  username: string | null
  password: string | null
  url: string
}

/**
 * The init script of an interactive sign-in: when the person submits a form holding a password
 * field (submit event, Enter in a field, or a click on its button), it reads the username and
 * password from the form's fields and hands them to {@link CAPTURE_BINDING} — an in-memory
 * callback of the flow, not the recorder: nothing is traced, logged or stored until the person
 * chooses to save them as secrets. Of a one-time-code form it reports only that there was one.
 */
export function captureScript(): string {
  return `(() => {
  if (window.__sitecallCaptureInstalled) return
  window.__sitecallCaptureInstalled = true
  const report = () => {
    const found = ${FIND_FIELDS}
    const value = (kind) => {
      const el = document.querySelector('[data-sitecall-login="' + kind + '"]')
      return el ? el.value : null
    }
    if (found.password && value('password'))
      window.${CAPTURE_BINDING}({ kind: 'password', username: value('username'), password: value('password'), url: location.href })
    else if (found.otp)
      window.${CAPTURE_BINDING}({ kind: 'otp', username: null, password: null, url: location.href })
  }
  document.addEventListener('submit', report, true)
  document.addEventListener('keydown', (e) => { if (e.key === 'Enter' && e.target && e.target.tagName === 'INPUT') report() }, true)
  document.addEventListener('click', (e) => {
    const b = e.target && e.target.closest && e.target.closest('button, input[type=submit]')
    if (b && (b.type === 'submit' || b.tagName === 'BUTTON')) report()
  }, true)
})()`
}
