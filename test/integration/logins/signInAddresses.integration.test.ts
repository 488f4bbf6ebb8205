import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toolSiteCheck } from '../../../src/main/engine/destination'
import { startGuardProxy, type GuardProxy } from '../../../src/main/engine/guardProxy'
import { createAutoSignIn } from '../../../src/main/logins/signInAuto'
import type { ToolSpec } from '../../../src/shared/toolSpec'

let site: Server
let port: number
let hits = 0
let proxy: GuardProxy
const refused: string[] = []

beforeAll(async () => {
  // A sign-in form that would take the saved password.
  site = createServer((_req, res) => {
    hits++
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<form method="post"><input name="username"><input type="password" name="password">')
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  port = (site.address() as AddressInfo).port
  // `shop.example` is a public site's name that resolves to this machine.
  proxy = await startGuardProxy(async (name) =>
    name === 'shop.example' ? [{ address: '127.0.0.1', family: 4 }] : [],
  )
})

afterAll(async () => {
  await proxy.close()
  site.close()
})

describe('unattended sign-in behind the guard proxy (issue 13 item 3)', () => {
  it('does not take the saved password to a public site whose name leads here', async () => {
    const siteHost = `shop.example:${port}`
    const saved: unknown[] = []
    const relogin = createAutoSignIn({
      chromiumPath: () => '/usr/bin/chromium',
      clock: () => Date.now(),
      loadMs: 10_000,
      logins: {
        credentials: async () => ({ username: 'alice', password: 'wonderland', totpSeed: null }),
        get: () => null,
        save: async (...args: unknown[]) => void saved.push(args),
      } as never,
      guardFor: async (host) =>
        proxy.settingsFor(toolSiteCheck(host), (denied) => refused.push(denied)),
    })
    const tool = {
      siteHost,
      steps: [{ request: { method: 'GET', url: `http://${siteHost}/api/orders` } }],
    } as unknown as ToolSpec
    expect(await relogin('local', tool)).toBe(false)
    expect(refused).toContain(siteHost)
    expect(hits).toBe(0)
    expect(saved).toEqual([])
  })
})
