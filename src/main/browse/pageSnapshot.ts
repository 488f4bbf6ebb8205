import type { ElementHandle, Page } from 'playwright-core'
import { ServiceError } from '../../shared/errors'
import { refElementScript, snapshotScript, type PageSnapshot } from './snapshotScript'

/** A navigation replaced the document while the script ran: take the snapshot again. */
const NAVIGATED = /Execution context was destroyed|Cannot find context with specified id|navigat/i

/**
 * Takes the accessibility snapshot of `page` (see `snapshotScript`), retrying while a navigation
 * replaces the document under it, all within `limitMs` (interface.md "Limits": snapshot 15 seconds).
 *
 * @throws ServiceError `page_unresponsive` (504) when no snapshot came within `limitMs` (a page
 *   whose main thread is busy never answers an evaluate); other Playwright errors (page closed)
 *   pass through.
 */
export async function takeSnapshot(page: Page, limitMs: number): Promise<PageSnapshot> {
  const deadline = performance.now() + limitMs
  const attempt = async (): Promise<PageSnapshot> => {
    for (;;) {
      try {
        return (await page.evaluate(snapshotScript())) as PageSnapshot
      } catch (error) {
        if (!NAVIGATED.test(String(error)) || performance.now() >= deadline) throw error
        await page
          .waitForLoadState('domcontentloaded', {
            timeout: Math.max(1, deadline - performance.now()),
          })
          .catch(() => undefined)
      }
    }
  }
  return withLimit(
    attempt(),
    limitMs,
    () =>
      new ServiceError(
        'page_unresponsive',
        `The page did not answer the snapshot within ${limitMs / 1000} s.`,
        { limitMs },
      ),
  )
}

/**
 * The element behind `ref` in the page's latest snapshot, or `null` when the page no longer holds
 * it (it navigated or re-rendered since). Bounded by `limitMs` like a snapshot.
 */
export async function elementForRef(
  page: Page,
  ref: string,
  limitMs: number,
): Promise<ElementHandle | null> {
  const found = async (): Promise<ElementHandle | null> => {
    try {
      const handle = await page.evaluateHandle(refElementScript(ref))
      const element = handle.asElement()
      if (!element) await handle.dispose()
      return element as ElementHandle | null
    } catch (error) {
      if (NAVIGATED.test(String(error))) return null
      throw error
    }
  }
  return withLimit(
    found(),
    limitMs,
    () =>
      new ServiceError('page_unresponsive', `The page did not answer within ${limitMs / 1000} s.`, {
        limitMs,
      }),
  )
}

/** Settles like `work`, or rejects with `onTimeout()` after `ms`; a late failure is swallowed. */
async function withLimit<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms)
  })
  work.catch(() => undefined)
  try {
    return await Promise.race([work, timeout])
  } finally {
    clearTimeout(timer)
  }
}
