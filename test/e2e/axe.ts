import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/**
 * Runs axe-core (WCAG 2 A and AA rules) on what `page` shows now and fails the test on any
 * critical or serious violation (issue 14 "Done when": axe on every view and state), naming each
 * rule with the elements it found, so the failure says what to fix.
 */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze()
  const serious = violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  expect(serious, `axe on ${state}`).toEqual([])
}
