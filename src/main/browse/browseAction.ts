import type { ElementHandle, Page } from 'playwright-core'
import { ServiceError } from '../../shared/errors'
import { watchNetwork } from './networkWatch'
import { elementForRef } from './pageSnapshot'
import { safeUrl } from '../../shared/safeJson'

/** The actions of the MCP `act` call. */
export const BROWSE_ACTIONS = ['click', 'fill', 'select', 'press', 'navigate'] as const
type BrowseActionKind = (typeof BROWSE_ACTIONS)[number]

/** The `act` input: `ref` names an element of the latest snapshot; `navigate` ignores it. */
export interface BrowseActInput {
  ref: string
  action: BrowseActionKind
  value?: string
}

/** A checked `act` input: what {@link checkActInput} returns. */
export type CheckedAct =
  | { action: 'navigate'; url: string }
  | { action: 'click'; ref: string }
  | { action: 'fill' | 'select' | 'press'; ref: string; value: string }

/** Time bounds of one action, in milliseconds. */
export interface ActionLimits {
  /** How long Playwright waits for the element to be actionable (visible, enabled, stable). */
  actionMs: number
  /** How long the action's network may take to go quiet before the snapshot is taken anyway. */
  settleMs: number
  /** Page load limit of `navigate` (interface.md "Limits": 30 seconds). */
  loadMs: number
  /** Bound on finding the ref's element in the page (the snapshot limit). */
  snapshotMs: number
}

const bad = (message: string) => new ServiceError('invalid_argument', message)

/**
 * Checks the form of an `act` input against the page it acts on (`pageUrl` resolves a relative
 * `navigate` URL). A ref may be written `e3` or `@e3`; whether it is in the latest snapshot is
 * the caller's check (`stale_ref`). `fill` may set an empty value; `select` takes an option's value or label;
 * `press` takes a Playwright key name (`Enter`, `Control+A`). `navigate` takes `value` as an http
 * or https URL and ignores `ref`, since it acts on the page, not on an element.
 *
 * @throws ServiceError `invalid_argument` (400) for an unknown action, a missing ref, or a
 *   missing or malformed value.
 */
export function checkActInput(input: BrowseActInput, pageUrl: string): CheckedAct {
  const { action, value } = input as { action: unknown; value: unknown }
  if (typeof action !== 'string' || !(BROWSE_ACTIONS as readonly string[]).includes(action))
    throw bad(`action must be one of ${BROWSE_ACTIONS.join(', ')}.`)
  if (value !== undefined && typeof value !== 'string') throw bad('value must be a string.')
  if (action === 'navigate') {
    const url = safeUrl(value ?? '', pageUrl)
    if (!url) throw bad('navigate needs value: the URL to open.')
    if (!value || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw bad('navigate needs value: an http or https URL.')
    return { action, url: url.href }
  }
  const given = (input as { ref: unknown }).ref
  if (typeof given !== 'string' || given.trim() === '')
    throw bad(`${action} needs ref: an element ref of the latest snapshot, like e3.`)
  // Agents often write refs as docs/interface.md does, `@e3`.
  const ref = given.trim().replace(/^@/, '')
  const kind = action as Exclude<BrowseActionKind, 'navigate'>
  if (kind === 'click') return { action: kind, ref }
  if (value === undefined || (kind !== 'fill' && value === ''))
    throw bad(
      kind === 'fill'
        ? 'fill needs value: the text to type.'
        : kind === 'select'
          ? "select needs value: the option's value or label."
          : 'press needs value: a key name such as Enter.',
    )
  return { action: kind, ref, value }
}

function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split('\n')[0] ?? ''
}

async function actOn(element: ElementHandle, act: CheckedAct, limits: ActionLimits) {
  const options = { timeout: limits.actionMs }
  switch (act.action) {
    case 'click':
      return element.click(options)
    case 'fill':
      return element.fill(act.value, options)
    case 'select':
      return void (await element.selectOption(act.value, options))
    case 'press':
      return element.press(act.value, options)
  }
}

/**
 * Does `act` in `page` with Playwright's real input (so the recorder's page script records it as
 * the person's action), then waits for the resulting network to settle, at most
 * `limits.settleMs`.
 *
 * @throws ServiceError `stale_ref` (409) when the page no longer holds the ref's element;
 *   `conflict` (409) when the element did not become actionable within `limits.actionMs`;
 *   `invalid_argument` (400) when the element cannot take the action (fill on a button);
 *   `site_unreachable` (504) when `navigate` did not load within `limits.loadMs`;
 *   `browser_network_failed` (502, details `{sessionId, outcome: 'unknown', retrySafe: false,
 *   failed}`) when a document, fetch or XHR request of the result got no answer (interface.md "Browse
 *   sessions": the outcome is unknown, the session stays open).
 */
export async function performAction(
  page: Page,
  act: CheckedAct,
  limits: ActionLimits,
  sessionId: string,
): Promise<void> {
  const watch = watchNetwork(page.context())
  const networkFailed = (extra: string | null) =>
    new ServiceError(
      'browser_network_failed',
      'The browser could not load the result of the action; it may or may not have reached the ' +
        'site. Take a snapshot and check before repeating a submission.',
      {
        sessionId,
        outcome: 'unknown',
        retrySafe: false,
        failed: watch.failures().map((f) => `${f.method} ${f.url}: ${f.failure}`),
        ...(extra ? { cause: extra } : {}),
      },
    )
  try {
    if (act.action === 'navigate') {
      try {
        await page.goto(act.url, { waitUntil: 'domcontentloaded', timeout: limits.loadMs })
      } catch (error) {
        if (error instanceof Error && error.name === 'TimeoutError')
          throw new ServiceError(
            'site_unreachable',
            `${act.url} did not load within ${limits.loadMs / 1000} s.`,
            { url: act.url },
          )
        throw networkFailed(firstLine(error))
      }
    } else {
      const element = await elementForRef(page, act.ref, limits.snapshotMs)
      if (!element)
        throw new ServiceError(
          'stale_ref',
          `The page changed since the snapshot: ${act.ref} is gone. Take a new snapshot.`,
          { ref: act.ref },
        )
      try {
        await actOn(element, act, limits)
      } catch (error) {
        const message = firstLine(error)
        if (/not attached|detached/i.test(message))
          throw new ServiceError(
            'stale_ref',
            `The page changed since the snapshot: ${act.ref} is gone. Take a new snapshot.`,
            { ref: act.ref },
          )
        if (error instanceof Error && error.name === 'TimeoutError')
          throw new ServiceError(
            'conflict',
            `${act.ref} could not take ${act.action} within ${limits.actionMs / 1000} s ` +
              '(hidden, disabled or covered). Take a new snapshot.',
            { ref: act.ref },
          )
        throw bad(`${act.action} on ${act.ref} failed: ${message}`)
      } finally {
        await element.dispose().catch(() => undefined)
      }
    }
    await watch.settle(limits.settleMs)
    if (watch.failures().length > 0) throw networkFailed(null)
  } finally {
    watch.stop()
  }
}
