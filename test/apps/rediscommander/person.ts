/**
 * What the scripted person does in Redis Commander's web UI: open it, unfold a folder of the key
 * tree (`user:*`) and click a key, right-click a node for its menu (Add Key, Rename Key), press
 * the buttons above a key's data, fill a modal and save it, and type a line into the command-line
 * panel at the bottom. Every action waits for the page's own request and then for the UI to show
 * the result.
 */
import type { Locator, Page, Response } from 'playwright-core'
import type { AppInstance } from '../types'
import { CONNECTION_ID } from './server'

/** The tree's node of `key` (a folder is its prefix with the folding char: `user:`). */
export function treeNode(page: Page, key: string): Locator {
  return page.locator(`#keyTree li[id="${CONNECTION_ID}:${key}"]`)
}

/** The tree's root node: the connection ("local (UnixSocket:-:0)"). */
export function rootNode(page: Page): Locator {
  return page.locator(`#keyTree li[id="${CONNECTION_ID}"]`)
}

/** Resolves with the first answer to `method` on a path `path` matches. */
export function answered(page: Page, method: string, path: RegExp): Promise<Response> {
  return page.waitForResponse(
    (res) => res.request().method() === method && path.test(new URL(res.url()).pathname),
    { timeout: 30_000 },
  )
}

/**
 * Opens Redis Commander (when the page is not on it yet) and waits until the key tree shows the
 * connection's top level. On a first visit the page signs itself in (no login is set: `POST
 * /signin` answers at once) and loads once more; the tree is drawn by the second load.
 */
export async function openHome(page: Page, app: AppInstance): Promise<void> {
  if (!page.url().startsWith(app.origin)) await page.goto(`${app.origin}/`)
  await treeNode(page, 'leaderboard').locator('> a').waitFor({ timeout: 30_000 })
}

/** Unfolds the tree's folder `prefix` (`user:`) by its arrow and waits for its children. */
export async function openFolder(page: Page, prefix: string): Promise<void> {
  const folder = treeNode(page, prefix)
  if ((await folder.getAttribute('class'))?.includes('jstree-open')) return
  await folder.locator('> i.jstree-ocl').click()
  await folder.locator('> ul > li').first().waitFor()
}

/**
 * Clicks `key` in the tree (unfolding the folders above it first, as its name's `:` parts) and
 * waits until the page shows it ("Key: <name>" above its data).
 */
export async function pickKey(page: Page, key: string): Promise<void> {
  const parts = key.split(':')
  for (let i = 1; i < parts.length; i++) await openFolder(page, `${parts.slice(0, i).join(':')}:`)
  const shown = answered(page, 'GET', /^\/apiv2\/key\//)
  await treeNode(page, key).locator('> a').click()
  await shown
  await keyShown(page, key).waitFor()
}

/** The "Key: <name>" line above a key's data. */
export function keyShown(page: Page, key: string): Locator {
  return page.locator('#itemData label').filter({ hasText: `Key: ${key}` })
}

/** Right-clicks a tree node and picks `item` from its menu (Add Key, Rename Key, Remove Key). */
export async function contextMenu(page: Page, node: Locator, item: string): Promise<void> {
  await node.locator('> a').click({ button: 'right' })
  await page.locator('.vakata-context a').filter({ hasText: item }).click()
}

/**
 * Types `line` into the command-line panel and presses Enter; waits for Redis Commander's answer
 * and until the panel shows `expect` (a line of that answer). Returns the request's answer.
 */
export async function runCommand(page: Page, line: string, expect: string): Promise<Response> {
  const output = page.locator('#commandLineOutput')
  await page.locator('#commandLine').click()
  await output.waitFor()
  const done = answered(page, 'POST', /^\/apiv2\/exec\//)
  await page.keyboard.type(line, { delay: 40 })
  await page.keyboard.press('Enter')
  const res = await done
  await output.getByText(expect, { exact: false }).first().waitFor()
  return res
}
