/**
 * What the scripted person does over and over in Node-RED's editor: wait for it to load, find a
 * node on the canvas or a flow tab by its label, deploy, and read the toast that confirms an action.
 */
import type { Locator, Page } from 'playwright-core'

/** Waits until the editor has loaded the flows (their tabs are drawn). */
export async function waitForEditor(page: Page): Promise<void> {
  await page.locator('#red-ui-workspace-tabs').getByText('Nightly import').waitFor()
}

/** A flow's tab in the workspace tab bar, by its label. */
export function flowTab(page: Page, label: string): Locator {
  return page.locator('#red-ui-workspace-tabs').getByText(label, { exact: true })
}

/** A node drawn on the visible canvas, by the label the person reads on it. */
export function canvasNode(page: Page, label: string): Locator {
  return page.locator('g.red-ui-flow-node-group', {
    has: page.locator('text.red-ui-flow-node-label-text', { hasText: label }),
  })
}

/** Waits for the editor's toast that contains `text` (Node-RED confirms actions with toasts). */
export async function waitForToast(page: Page, text: string): Promise<void> {
  await page.locator('.red-ui-notification', { hasText: text }).first().waitFor()
}

/** Clicks Deploy (the default "Full" deploy) and waits for "Successfully deployed". */
export async function deploy(page: Page): Promise<void> {
  await page.locator('#red-ui-header-button-deploy').click()
  await waitForToast(page, 'Successfully deployed')
}
