import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { SHOTS } from './directoryApp'
import { createCore, LOCAL_TENANT, type Core } from '../../src/main/core'
import { REQUIREMENT_WINDOW_MS } from '../../src/main/engine/requirements'
import type { Run } from '../../src/shared/run'
import type { ToolSpec } from '../../src/shared/toolSpec'
import { saveOrderToolAndLogin } from './orderTool'
import { startOrdersSite, type OrdersSite } from '../fixtures/sites/orders'
import { fakeClock, type FakeClock } from '../integration/engine/engineHarness'
import { callTool, send, type ErrorAnswerBody } from '../fixtures/harness/http'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
// `npm run test:e2e` builds it first; the test drives the real bundle, not a dev server.
const rendererDir = join(root, 'out/renderer')

let orders: OrdersSite
let core: Core
let base: string
let home: string
let key: string
let clock: FakeClock
let tool: ToolSpec

test.beforeEach(async () => {
  expect(existsSync(join(rendererDir, 'index.html')), 'run `npm run build:renderer` first').toBe(
    true,
  )
  home = mkdtempSync(join(tmpdir(), 'sitecall-inbox-e2e-'))
  clock = fakeClock()
  orders = await startOrdersSite({ recordRequests: true })
  core = createCore({
    home,
    port: 0,
    headless: true,
    rendererDir,
    clock: clock.now,
    keychain: null,
    env: { SITECALL_KEYCHAIN: 'off', SITECALL_PASSPHRASE: 'inbox e2e passphrase' },
    // The test moves the fake clock past 15 minutes and answers before any sweep would run.
    expirySweepMs: 60 * 60_000,
  })
  base = await core.listen()
  key = core.store.keys.create(
    { id: 'key_inbox', tenant: LOCAL_TENANT, label: 'agent' },
    clock.now(),
  ).key
  tool = await saveOrderToolAndLogin(core, orders)
})

test.afterEach(async ({ page }) => {
  // The UI's event stream holds a connection open, and the server's close waits for it.
  await page.close()
  await core.close()
  await orders.close()
  rmSync(home, { recursive: true, force: true })
})

/** An agent calls the write through surface A without `allow_mutation`: the run waits. */
async function agentOrders(inputs: Record<string, unknown>): Promise<Run> {
  const answer = await callTool<Run>(base, key, tool, inputs)
  expect(answer.status).toBe(202)
  expect(answer.body.status).toBe('input_required')
  return answer.body
}

const card = (page: Page, runId: string): Locator =>
  page.locator(`[data-testid="inbox-item"][data-run-id="${runId}"]`)
const outcome = (page: Page, runId: string): Locator =>
  page.locator(`[data-testid="inbox-outcome"][data-run-id="${runId}"]`)
const ordersMade = (item: string) =>
  orders.state.orders.list('alice', null).filter((o) => o.item === item)

test('the person answers runs in the inbox: approved runs, declined fails, expired refuses', async ({
  page,
}) => {
  await page.goto(`${base}/app/?token=${core.ownerToken}#/inbox`)
  await expect(page.getByTestId('inbox-empty')).toBeVisible()
  await expect(page.getByTestId('inbox-count')).toHaveCount(0)

  // A call missing its quantity, with a shipping that is no option: a value, a choice, an approval.
  const teapot = await agentOrders({ item: 'Teapot "Brown Betty"', shipping: 'fast' })
  const kettle = await agentOrders({ item: 'Kettle', quantity: 1, shipping: 'standard' })

  // Both arrive live over the event stream; the nav counts the four pending requirements.
  await expect(page.getByTestId('inbox-item')).toHaveCount(2)
  await expect(page.getByTestId('inbox-count')).toHaveText('4')
  const first = card(page, teapot.runId)
  await expect(first.getByTestId('inbox-tool')).toHaveText(tool.name)
  await expect(first.getByTestId('inbox-site')).toHaveText(orders.host)
  await expect(first.getByTestId('time-left')).toHaveText(/^(15:00|14:[0-5]\d) left$/)
  await expect(first.getByTestId('slot-type')).toHaveText('integer')
  const choice = first.getByTestId('requirement-choice')
  for (const label of ['standard', 'express', 'overnight'])
    await expect(choice.getByLabel(label)).toBeVisible()
  // The approval shows the exact request it lets the run send.
  const second = card(page, kettle.runId)
  await expect(second.getByTestId('approval-method')).toHaveText('POST')
  await expect(second.getByTestId('approval-url')).toHaveText(`${orders.url}/api/orders`)
  expect(JSON.parse((await second.getByTestId('approval-body').textContent())!)).toEqual({
    item: 'Kettle',
    quantity: 1,
    shipping: 'standard',
  })
  // An approval is given on the request as it will be sent: only once the other answers are in.
  await expect(first.getByTestId('approve')).toBeDisabled()
  await expect(first.getByTestId('approval-waits')).toBeVisible()
  await page.screenshot({ path: join(SHOTS, 'ui-inbox.png'), fullPage: true })

  // Teapot: enter the quantity, choose express, then approve what will be sent.
  await first.getByTestId('value-input').fill('2')
  await first.getByTestId('enter').click()
  await expect(first.getByTestId('requirement-value')).toHaveCount(0)
  await expect(page.getByTestId('inbox-count')).toHaveText('3')
  await first.getByLabel('express').check()
  await first.getByTestId('choose').click()
  await expect(first.getByTestId('requirement-choice')).toHaveCount(0)
  expect(JSON.parse((await first.getByTestId('approval-body').textContent())!)).toEqual({
    item: 'Teapot "Brown Betty"',
    quantity: 2,
    shipping: 'express',
  })
  expect(ordersMade('Teapot "Brown Betty"')).toEqual([])
  await first.getByTestId('approve').click()
  await expect(outcome(page, teapot.runId).getByTestId('outcome-status')).toHaveText('succeeded')
  await expect(first).toHaveCount(0)
  expect(ordersMade('Teapot "Brown Betty"')).toMatchObject([{ quantity: 2, shipping: 'express' }])

  // Kettle: declined, nothing is sent and the run fails `declined`.
  await second.getByTestId('decline').click()
  const declined = outcome(page, kettle.runId)
  await expect(declined.getByTestId('outcome-status')).toHaveText('failed')
  await expect(declined.getByTestId('outcome-error')).toContainText('declined')
  expect(ordersMade('Kettle')).toEqual([])
  expect(core.engine.get(kettle.runId)?.error?.code).toBe('declined')
  await expect(page.getByTestId('inbox-count')).toHaveCount(0)

  // Toaster: nobody answers within 15 minutes (on the core's clock); answering then is refused.
  const toaster = await agentOrders({ item: 'Toaster', quantity: 1, shipping: 'overnight' })
  const third = card(page, toaster.runId)
  await expect(third).toBeVisible()
  clock.advance(REQUIREMENT_WINDOW_MS + 1000)
  await third.getByTestId('approve').click()
  const expired = outcome(page, toaster.runId)
  await expect(expired.getByTestId('outcome-status')).toHaveText('expired')
  await expect(expired.getByTestId('outcome-error')).toContainText('expired_requirement')
  await expect(third).toHaveCount(0)
  const again = await send<ErrorAnswerBody>(
    base,
    'POST',
    `/api/v1/runs/${toaster.runId}/responses`,
    {
      key,
      json: {
        stateRevision: toaster.stateRevision,
        answers: [{ requirementId: toaster.requirements[0]!.id, approve: true }],
      },
    },
  )
  expect(again.status).toBe(409)
  expect(again.body.error.code).toBe('expired_requirement')
  expect(ordersMade('Toaster')).toEqual([])
  await expect(page.getByTestId('inbox-empty')).toBeVisible()
  await page.screenshot({ path: join(SHOTS, 'ui-inbox-answered.png'), fullPage: true })
})

test('a run nobody answers within 15 minutes of the core clock leaves the inbox as expired', async ({
  page,
}) => {
  const waiting = await agentOrders({ item: 'Mug', quantity: 1, shipping: 'standard' })
  await page.goto(`${base}/app/?token=${core.ownerToken}#/inbox`)
  await expect(card(page, waiting.runId).getByTestId('time-left')).toHaveText(/left$/)
  // A quarter-hour on the core's clock, seen by the UI at its next read of the inbox (a sweep).
  clock.advance(REQUIREMENT_WINDOW_MS + 1000)
  expect(core.engine.expireWaiting()).toBe(1)
  const closed = outcome(page, waiting.runId)
  await expect(closed.getByTestId('outcome-status')).toHaveText('expired')
  await expect(closed.getByTestId('outcome-error')).toContainText('15 minutes')
  await expect(page.getByTestId('inbox-count')).toHaveCount(0)
  expect(ordersMade('Mug')).toEqual([])
})
