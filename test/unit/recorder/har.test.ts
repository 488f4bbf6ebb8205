import { once } from 'node:events'
import { createRequire } from 'node:module'
import {
  createWriteStream,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { isIPv4, isIPv6 } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Ajv from 'ajv'
import draft06 from 'ajv/dist/refs/json-schema-draft-06.json'
import { afterAll, describe, expect, it } from 'vitest'
import { isServiceError } from '../../../src/shared/errors'
import type { Exchange, Trace } from '../../../src/shared/trace'
import { exportHar, importHar, importHarFile, type Har } from '../../../src/main/recorder/har'
import { SECRET_PLACEHOLDER } from '../../../src/main/recorder'

// har-schema ships CommonJS without types: a map of schema name → JSON Schema (draft-06).
const harSchema = createRequire(import.meta.url)('har-schema') as Record<string, object>
const fixtures = join(import.meta.dirname, '../../fixtures/har')
const readFixture = (name: string) => readFileSync(join(fixtures, name), 'utf8')
const options = (traceId = 'trc_test') => ({ traceId, intent: 'find red things', now: 1 })
const byUrl = (trace: Trace, url: string, method = 'GET'): Exchange => {
  const found = trace.exchanges.find((e) => e.url === url && e.method === method)
  if (!found) throw new Error(`no ${method} ${url} in ${trace.exchanges.map((e) => e.url)}`)
  return found
}

const temp = mkdtempSync(join(tmpdir(), 'sitecall-har-'))
afterAll(() => rmSync(temp, { recursive: true, force: true }))

/** Validates against the HAR 1.2 schema of `har-schema` (draft-06, with its `min`/`optional`). */
function harValidator() {
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    formats: {
      'date-time': (s: string) => !Number.isNaN(Date.parse(s)),
      uri: (s: string) => URL.canParse(s),
      ipv4: (s: string) => isIPv4(s),
      ipv6: (s: string) => isIPv6(s),
    },
  })
  ajv.addMetaSchema(draft06)
  for (const schema of Object.values(harSchema)) ajv.addSchema(schema)
  const validate = ajv.getSchema('har.json#')!
  return (har: unknown) => {
    const ok = validate(har)
    return ok ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)
  }
}

describe('HAR import', () => {
  it('reads Chrome DevTools HARs: pseudo-headers dropped, _resourceType kept, redirects, missing bodies', () => {
    const trace = importHar(readFixture('chrome.har'), options())
    expect(trace).toMatchObject({ id: 'trc_test', intent: 'find red things', actions: [] })
    expect(trace.startUrl).toBe('https://shop.example/search')
    expect(trace.exchanges.map((e) => [e.id, e.method, e.status, e.resourceType])).toEqual([
      ['exc_1', 'GET', 301, 'document'],
      ['exc_2', 'GET', 200, 'document'],
      ['exc_3', 'GET', 200, 'image'],
      ['exc_4', 'OPTIONS', 204, 'other'],
      ['exc_5', 'POST', 200, 'fetch'],
    ])
    const redirect = byUrl(trace, 'http://shop.example/search')
    expect(redirect.responseHeaders.location).toBe('https://shop.example/search')
    const search = byUrl(trace, 'https://shop.example/api/search?lang=en', 'POST')
    expect(Object.keys(search.requestHeaders).some((k) => k.startsWith(':'))).toBe(false)
    expect(search.requestHeaders).toMatchObject({
      'content-type': 'application/json',
      cookie: 'sid=abc123',
    })
    expect(search.requestBody).toEqual({ text: '{"query":"red"}', encoding: 'utf8' })
    // Compressed in transit, decoded in the HAR: the body is the JSON itself.
    expect(JSON.parse(search.responseBody!.text)).toMatchObject({ count: 2 })
    expect(search.startedAt).toBe(Date.parse('2024-05-02T10:00:01.010Z'))
    expect(search.durationMs).toBe(45)
    expect(byUrl(trace, 'https://shop.example/logo.png').responseBody).toBeNull()
    expect(trace.exchanges.every((e) => e.pageUrl === 'https://shop.example/search')).toBe(true)
  })

  it('reads Firefox HARs: base64 JSON becomes text, postData.params rebuild the form, types are inferred', () => {
    const trace = importHar(readFixture('firefox.har'), options())
    expect(trace.exchanges.map((e) => e.resourceType)).toEqual([
      'document',
      'script',
      'image',
      'fetch',
    ])
    // The page's title is not a URL: the page URL is its document's.
    expect(trace.startUrl).toBe('https://shop.example/search')
    expect(new Set(trace.exchanges.map((e) => e.pageUrl))).toEqual(
      new Set(['https://shop.example/search']),
    )
    const search = byUrl(trace, 'https://shop.example/api/search', 'POST')
    expect(search.requestBody).toEqual({ text: 'query=red%20kettle&page=1', encoding: 'utf8' })
    expect(search.responseBody!.encoding).toBe('utf8')
    expect(JSON.parse(search.responseBody!.text).data[0].name).toBe('Red kettle')
    expect(search.requestHeaders['x-trace']).toBe('one, two')
    expect(search.requestHeaders).toHaveProperty(
      'content-type',
      'application/x-www-form-urlencoded',
    )
    expect(search.startedAt).toBe(Date.parse('2024-05-02T09:00:01.000Z'))
    const image = byUrl(trace, 'https://shop.example/img/kettle.png')
    expect(image.responseBody!.encoding).toBe('base64')
    expect(Buffer.from(image.responseBody!.text, 'base64').subarray(1, 4).toString()).toBe('PNG')
  })

  it('reads Playwright HARs and redacts a posted password as the recorder does', () => {
    const trace = importHar(readFixture('playwright.har'), options())
    expect(trace.exchanges.map((e) => e.resourceType)).toEqual(['document', 'fetch', 'fetch'])
    const login = byUrl(trace, 'https://shop.example/api/login', 'POST')
    expect(JSON.parse(login.requestBody!.text)).toEqual({
      email: 'ada@example.com',
      password: SECRET_PLACEHOLDER,
    })
    expect(JSON.stringify(trace)).not.toContain('hunter2')
    expect(login.responseHeaders['set-cookie']).toContain(
      'session=s3cr3t; Path=/; HttpOnly; Secure',
    )
    const orders = byUrl(trace, 'https://shop.example/api/orders?status=open')
    expect(orders.requestHeaders.cookie).toBe('session=s3cr3t')
    // Playwright kept this body in a side file the HAR does not hold.
    expect(orders.responseBody).toBeNull()
    expect(orders.pageUrl).toBe('https://shop.example/login')
  })

  it('reads mitmproxy HARs: no pages, entries put in time order, repeated Set-Cookie kept apart', () => {
    const trace = importHar(readFixture('mitmproxy.har'), options())
    expect(trace.exchanges.map((e) => `${e.id} ${e.status} ${e.url}`)).toEqual([
      'exc_1 302 http://shop.example/items',
      'exc_2 200 https://shop.example/items',
      'exc_3 200 https://shop.example/favicon.ico',
      'exc_4 200 https://shop.example/api/items?q=red',
    ])
    expect(trace.startUrl).toBe('http://shop.example/items')
    const redirect = trace.exchanges[0]!
    expect(redirect.responseHeaders['set-cookie']).toBe('a=1; Path=/\nb=2; Path=/')
    expect(redirect.responseHeaders.location).toBe('https://shop.example/items')
    expect(redirect.responseBody).toEqual({ text: '', encoding: 'utf8' })
    const api = trace.exchanges[3]!
    expect(api.requestHeaders).not.toHaveProperty(':authority')
    expect(api.resourceType).toBe('fetch')
    expect(api.pageUrl).toBe('https://shop.example/items')
    expect(trace.exchanges[2]!.pageUrl).toBe('https://shop.example/items')
  })

  it('streams a file to the same trace as parsing it whole', async () => {
    for (const name of ['chrome.har', 'firefox.har', 'playwright.har', 'mitmproxy.har']) {
      const whole = importHar(readFixture(name), options())
      const streamed = await importHarFile(join(fixtures, name), {
        ...options(),
        streamAboveBytes: 0,
      })
      expect(streamed).toEqual(whole)
      expect(await importHarFile(join(fixtures, name), options())).toEqual(whole)
    }
  })

  it('refuses what is not a HAR with invalid_input, naming why', async () => {
    const bad = join(temp, 'bad.har')
    writeFileSync(bad, '{"log": {"entries": [')
    const notHar = join(temp, 'other.json')
    writeFileSync(notHar, '{"hello": [1, 2]}')
    for (const attempt of [
      () => importHarFile(join(temp, 'missing.har'), options()),
      () => importHarFile(bad, options()),
      () => importHarFile(bad, { ...options(), streamAboveBytes: 0 }),
      () => importHarFile(notHar, options()),
      () => importHarFile(notHar, { ...options(), streamAboveBytes: 0 }),
      async () => importHar('not json', options()),
      async () => importHar({ log: { entries: [{ request: {} }] } } as unknown as Har, options()),
    ]) {
      const error = await attempt().then(
        () => null,
        (e: unknown) => e,
      )
      expect(isServiceError(error) && error.code).toBe('invalid_input')
    }
    await expect(importHarFile(join(temp, 'missing.har'), options())).rejects.toThrow(
      /missing\.har.*ENOENT/,
    )
    for (const streamAboveBytes of [0, 1e9])
      await expect(importHarFile(notHar, { ...options(), streamAboveBytes })).rejects.toThrow(
        /other\.json is not a HAR 1\.2 file: it has no "log.entries"/,
      )
  })
})

describe('HAR export', () => {
  const validate = harValidator()

  it('the validator rejects a HAR that breaks the schema (so passing means something)', () => {
    const har = exportHar(importHar(readFixture('chrome.har'), options()), { version: '0.1.0' })
    const broken = structuredClone(har) as unknown as {
      log: { entries: Array<Record<string, unknown>> }
    }
    delete broken.log.entries[0]!.request
    broken.log.entries[1]!.startedDateTime = 'yesterday'
    expect(validate(broken).length).toBeGreaterThanOrEqual(2)
  })

  it('writes HAR 1.2 that validates against har-schema for every dialect imported', () => {
    for (const name of ['chrome.har', 'firefox.har', 'playwright.har', 'mitmproxy.har']) {
      const har = exportHar(importHar(readFixture(name), options()), { version: '0.1.0' })
      expect(validate(har), name).toEqual([])
      expect(har.log.version).toBe('1.2')
      expect(har.log.creator).toEqual({ name: 'Sitecall', version: '0.1.0' })
      expect(har.log.entries.every((e) => typeof e._resourceType === 'string')).toBe(true)
    }
  })

  it('exports binary request bodies, failed requests and pages', () => {
    const trace = importHar(readFixture('chrome.har'), options())
    trace.exchanges.push({
      ...trace.exchanges[4]!,
      id: 'exc_6',
      seq: 6,
      requestBody: { text: Buffer.from([0, 1, 2, 255]).toString('base64'), encoding: 'base64' },
      requestHeaders: { 'content-type': 'application/octet-stream' },
      status: 0,
      responseHeaders: {},
      responseBody: null,
      pageUrl: 'https://shop.example/other',
    })
    const har = exportHar(trace, { version: '0.1.0' })
    expect(validate(har)).toEqual([])
    expect(har.log.pages!.map((p) => p.title)).toEqual([
      'https://shop.example/search',
      'https://shop.example/other',
    ])
    const last = har.log.entries.at(-1)!
    expect(last.response.status).toBe(0)
    expect(last.request.postData).toMatchObject({ _encoding: 'base64' })
    expect(last.pageref).toBe(har.log.pages![1]!.id)
  })

  it('round-trips: import(export(trace)) keeps method, URL, headers, bodies, status, type and order', async () => {
    for (const name of ['chrome.har', 'firefox.har', 'playwright.har', 'mitmproxy.har']) {
      const trace = importHar(readFixture(name), options())
      const path = join(temp, `round-${name}`)
      writeFileSync(path, JSON.stringify(exportHar(trace, { version: '0.1.0' })))
      const again = await importHarFile(path, options())
      const keep = (e: Exchange) => ({
        id: e.id,
        method: e.method,
        url: e.url,
        requestHeaders: e.requestHeaders,
        requestBody: e.requestBody,
        status: e.status,
        responseHeaders: e.responseHeaders,
        responseBody: e.responseBody,
        resourceType: e.resourceType,
        startedAt: e.startedAt,
        durationMs: e.durationMs,
        pageUrl: e.pageUrl,
      })
      expect(again.exchanges.map(keep), name).toEqual(trace.exchanges.map(keep))
      expect(again.startUrl).toBe(trace.startUrl)
    }
  })
})

describe('HAR import of a large file', () => {
  it('streams a ~50 MB HAR generated at test time to a complete trace', async () => {
    const path = join(temp, 'large.har')
    const out = createWriteStream(path)
    const write = async (text: string) => {
      if (!out.write(text)) await once(out, 'drain')
    }
    const filler = 'x'.repeat(10_000)
    const count = 4_800
    await write(
      '{"log":{"version":"1.2","creator":{"name":"gen","version":"1"},"pages":[],"entries":[',
    )
    for (let i = 0; i < count; i++) {
      const entry = {
        startedDateTime: new Date(Date.UTC(2024, 0, 1) + i).toISOString(),
        time: 1,
        request: {
          method: 'GET',
          url: `https://big.example/api/items?page=${i}`,
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: [{ name: 'accept', value: 'application/json' }],
          queryString: [],
          headersSize: -1,
          bodySize: 0,
        },
        response: {
          status: 200,
          statusText: 'OK',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: [{ name: 'content-type', value: 'application/json' }],
          content: {
            size: 10_020,
            mimeType: 'application/json',
            text: JSON.stringify({ i, filler }),
          },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
        },
        cache: {},
        timings: { send: 0, wait: 1, receive: 0 },
      }
      await write(`${i ? ',' : ''}${JSON.stringify(entry)}`)
    }
    await write(']}}')
    out.end()
    await once(out, 'finish')
    expect(statSync(path).size).toBeGreaterThan(48 * 1024 * 1024)

    // Bodies over 1 KiB are left out, so what the import keeps stays small.
    const trace = await importHarFile(path, {
      ...options(),
      maxBodyBytes: 1024,
      streamAboveBytes: 0,
    })
    expect(trace.exchanges).toHaveLength(count)
    expect(trace.exchanges.at(-1)).toMatchObject({
      id: `exc_${count}`,
      url: `https://big.example/api/items?page=${count - 1}`,
      resourceType: 'fetch',
      responseBody: null,
    })
  }, 120_000)
})
