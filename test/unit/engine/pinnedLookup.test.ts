import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Agent, request } from 'undici'
import {
  addressDenied,
  apiUrlDenied,
  createPinnedLookup,
  DENIED_CONNECT_CODE,
  type HostLookup,
} from '../../../src/main/engine/destination'

let server: Server
let port: number

beforeAll(async () => {
  server = createServer((_req, res) => res.end('inside'))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as { port: number }).port
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

/** A resolver that answers a public address first and a loopback one after (DNS rebinding). */
function rebinding(): HostLookup {
  let calls = 0
  return async (hostname) => {
    if (hostname === 'localhost') return [{ address: '127.0.0.1', family: 4 }]
    if (hostname === 'metadata.test') return [{ address: '169.254.169.254', family: 4 }]
    calls++
    return [{ address: calls === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }]
  }
}

const failureOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e as { code?: string; cause?: { code?: string } },
  )
  return error?.cause?.code ?? error?.code ?? null
}

describe('the address connected is the address checked (issue 13 item 3)', () => {
  it('a name that passed the check and then resolves to loopback is refused at connect', async () => {
    const lookup = rebinding()
    expect(await addressDenied(`http://shop.test:${port}/`, 'shop.test', lookup)).toBeNull()
    const dispatcher = new Agent({ connect: { lookup: createPinnedLookup(lookup) } })
    const code = await failureOf(request(`http://shop.test:${port}/`, { dispatcher }))
    expect(code).toBe(DENIED_CONNECT_CODE)
    await dispatcher.close()
  })

  it('lets localhost through to a local site, and never a metadata name', async () => {
    const dispatcher = new Agent({ connect: { lookup: createPinnedLookup(rebinding()) } })
    const answer = await request(`http://localhost:${port}/`, { dispatcher })
    expect(await answer.body.text()).toBe('inside')
    expect(await failureOf(request(`http://metadata.test:${port}/`, { dispatcher }))).toBe(
      DENIED_CONNECT_CODE,
    )
    await dispatcher.close()
  })

  it('refuses a metadata address even as the site of a local tool', async () => {
    expect(
      await addressDenied('http://169.254.169.254/latest/meta-data/', '169.254.169.254'),
    ).toMatch(/metadata/)
    expect(await addressDenied('http://127.0.0.1:8080/x', '127.0.0.1:8080')).toBeNull()
  })

  it('lets API URLs reach private addresses only for allowed sites, metadata never', async () => {
    const lookup = rebinding()
    expect(await apiUrlDenied(`http://127.0.0.1:${port}/`, [])).toMatch(/Local sites/)
    expect(await apiUrlDenied(`http://127.0.0.1:${port}/`, [`127.0.0.1:${port}`])).toBeNull()
    expect(await apiUrlDenied(`http://127.0.0.1:${port + 1}/`, [`127.0.0.1:${port}`])).toMatch(
      /Local sites/,
    )
    expect(await apiUrlDenied('http://0.0.0.0:9/', [])).toMatch(/Local sites/)
    expect(await apiUrlDenied('http://[::ffff:10.1.2.3]/', [])).toMatch(/Local sites/)
    expect(await apiUrlDenied('http://169.254.169.254/', ['169.254.169.254'])).toMatch(/metadata/)
    expect(await apiUrlDenied('http://[fd00:ec2::254]/', ['[fd00:ec2::254]'])).toMatch(/metadata/)
    expect(await apiUrlDenied('http://metadata.test/', ['metadata.test'], lookup)).toMatch(
      /metadata/,
    )
    expect(await apiUrlDenied('https://example.com/', [], lookup)).toBeNull()
  })
})
