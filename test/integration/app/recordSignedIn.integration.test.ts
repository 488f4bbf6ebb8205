import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'

// Issue 26 item 2.5: a cookie login saved for a site (by "Sign in to a site", or at Stop) is
// where the next recording on that site starts: its browser sends the saved session.

let home: string
let core: Core
let site: Server
let host: string
/** The Cookie header of each page request the site received. */
const cookies: string[] = []

beforeAll(async () => {
  site = createServer((req, res) => {
    cookies.push(req.headers.cookie ?? '')
    const signedIn = /parcel_session=s3ss10n/.test(req.headers.cookie ?? '')
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(signedIn ? '<h1>Your orders</h1>' : '<h1>Sign in</h1>')
  })
  await new Promise<void>((done) => site.listen(0, '127.0.0.1', done))
  host = `127.0.0.1:${(site.address() as AddressInfo).port}`
  home = mkdtempSync(join(tmpdir(), 'sitecall-record-signed-in-'))
  core = createCore({ home, port: 0, headless: true, rendererDir: null, keychain: null })
  await core.vault.unlock('a passphrase for the signed-in recording')
  await core.listen()
})

afterAll(async () => {
  await core.close()
  site.close()
  rmSync(home, { recursive: true, force: true })
})

/** Starts a recording of the site's page through the app, reads its heading, and stops it. */
async function recordOnce(): Promise<string> {
  const state = await core.handlers['recorder.start']({
    url: `http://${host}/orders`,
    intent: 'list my orders',
  })
  const heading = await core.recordings.recording(state.sessionId)!.page.locator('h1').innerText()
  await core.handlers['recorder.stop']({ sessionId: state.sessionId })
  return heading
}

describe('a recording on a site with a saved cookie login', () => {
  it('starts signed out while no login is saved, signed in once one is', async () => {
    expect(await recordOnce()).toBe('Sign in')
    expect(cookies.at(-1)).toBe('')

    await core.logins.save(LOCAL_TENANT, host, {
      cookies: [
        { name: 'parcel_session', value: 's3ss10n', domain: '127.0.0.1', path: '/', expires: -1 },
      ],
      origins: [],
    })
    expect(await recordOnce()).toBe('Your orders')
    expect(cookies.at(-1)).toContain('parcel_session=s3ss10n')
  })
})
