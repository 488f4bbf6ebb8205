import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { isServiceError } from '../../../src/shared/errors'

let h: Harness

beforeEach(async () => {
  h = await startHarness()
  h.core.store.localSites.remove('local', '127.0.0.1')
})

afterEach(async () => {
  await h.close()
})

describe('local sites in the app (issue 13 item 3, the Settings view)', () => {
  it('allows, lists and removes a site through the UI contract, refusing what is no host', async () => {
    const { handlers } = h.core
    const host = new URL(h.site.url).host
    expect(await handlers['localSites.list']({})).toEqual([])
    expect(await handlers['localSites.allow']({ host: host.toUpperCase() })).toMatchObject({
      host,
    })
    expect((await handlers['localSites.list']({})).map((s) => s.host)).toEqual([host])
    const refused = await handlers['localSites.allow']({ host: 'http://x/' }).then(
      () => null,
      (e: unknown) => e,
    )
    expect(isServiceError(refused) && refused.code).toBe('invalid_input')
    expect(await handlers['localSites.remove']({ host })).toEqual({ removed: true })
    expect(await handlers['localSites.remove']({ host })).toEqual({ removed: false })
  })
})
