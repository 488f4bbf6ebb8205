import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { createCore, type Core } from '../../src/main/core'
import { startOrdersSite, type OrdersSite } from '../fixtures/sites/orders'
import { TEST_PASSPHRASE } from '../integration/logins/loginHelpers'

let site: OrdersSite
let core: Core
let base: string
let home: string

test.beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-e2e-orders-'))
  site = await startOrdersSite({ recordRequests: true })
  core = createCore({ home, port: 0, headless: true, rendererDir: null, keychain: null })
  // A recording keeps the site's login only in an unlocked vault (sealed, never in the clear).
  expect((await core.vault.unlock(TEST_PASSPHRASE)).mode).toBe('passphrase')
  base = await core.listen()
})

test.afterEach(async () => {
  await core.close()
  await site.close()
  rmSync(home, { recursive: true, force: true })
})

const pageLoads = () =>
  site.state.requests.filter((r) => r.method === 'GET' && r.path === '/orders')

test('a recorded order form compiles to a tool that signs in with the saved login, fetches a fresh CSRF token per call, and writes only with allow_mutation', async () => {
  const state = await core.recordings.start({ url: `${site.url}/login`, intent: 'create an order' })
  const page = core.recordings.recording(state.sessionId)!.page
  // The scripted person: sign in, then create one order through the page's form.
  await page.getByLabel('Username').fill('alice')
  await page.getByLabel('Password').fill('wonderland')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/orders$/)
  await page.getByLabel('Item').fill('Walnut cutting board')
  await page.getByLabel('Quantity').fill('3')
  await page.getByLabel('Shipping').selectOption('overnight')
  await page.getByRole('button', { name: 'Create order' }).click()
  await expect(page.getByRole('status')).toHaveText(/^Created order /)
  const result = await core.recordings.stop(state.sessionId)

  expect(result.explanation).toBeNull()
  const tool = result.candidate!
  const paths = tool.steps.map((s) => `${s.request.method} ${new URL(s.request.url).pathname}`)
  expect(paths).toEqual(['GET /orders', 'POST /api/orders'])
  expect(tool.mutating).toBe(true)
  expect(tool.steps[0]!.extract).toEqual([{ name: 'csrf_token', from: 'meta', path: 'csrf-token' }])
  expect(tool.steps[1]!.request.headers['x-csrf-token']).toBe(
    `{{step.${tool.steps[0]!.id}.csrf_token}}`,
  )
  expect(tool.login?.cookies.length).toBeGreaterThan(0)
  expect(Object.keys(tool.inputs.properties).sort()).toEqual(['item', 'quantity', 'shipping'])
  expect(tool.inputs.properties.shipping!.enum).toEqual(['standard', 'express', 'overnight'])
  // What was typed into the password field is nowhere in the stored trace.
  const stored = JSON.stringify(core.store.traces.get(result.traceId))
  expect(stored).not.toContain('wonderland')
  // The session the person signed in with is offered, and saved once they say so: sealed.
  expect(result.login).toMatchObject({ host: tool.siteHost, username: 'alice', saved: false })
  expect(core.store.logins.get('local', tool.siteHost)).toBeNull()
  await core.handlers['logins.saveFromTrace']({ traceId: result.traceId, host: tool.siteHost })
  const saved = core.store.logins.get('local', tool.siteHost)
  expect(saved).not.toBeNull()
  expect(saved!.plaintextState).toBeNull()
  expect(saved!.sealedState!.toString('utf8')).not.toContain('parcel_session')
  const { state: login } = await core.logins.load('local', tool.siteHost)
  expect(login?.cookies.map((c) => c.name)).toContain('parcel_session')

  const key = core.store.keys.create(
    { id: 'key_orders', tenant: 'local', label: 'e2e' },
    Date.now(),
  ).key
  const execute = (idempotencyKey: string, body: unknown) =>
    fetch(`${base}/v1/tools/${tool.id}/execute`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify(body),
    })
  const ordersBefore = site.state.orders.list('alice').length
  const loadsBefore = pageLoads().length

  const refused = await execute('orders-e2e-0001', {
    inputs: { p0: 'Teapot', p1: '2', p2: 'express' },
  })
  expect(refused.status).toBe(403)
  expect(site.state.orders.list('alice')).toHaveLength(ordersBefore)
  expect(pageLoads()).toHaveLength(loadsBefore)

  for (const [n, item] of ['Teapot', 'Kettle'].entries()) {
    const answer = await execute(`orders-e2e-100${n}`, {
      inputs: { p0: item, p1: '2', p2: 'express' },
      allow_mutation: true,
    })
    const body = (await answer.json()) as {
      run: { status: string; result: { order: { item: string } } }
    }
    expect(body.run.status).toBe('succeeded')
    expect(body.run.result.order.item).toBe(item)
  }
  expect(
    site.state.orders
      .list('alice')
      .slice(ordersBefore)
      .map((o) => o.item),
  ).toEqual(['Teapot', 'Kettle'])
  // One fresh page load (and so one fresh CSRF token) per call.
  expect(pageLoads()).toHaveLength(loadsBefore + 2)
})
