import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src/main/core'
import type { DeviceHub } from '../../../src/main/server/devices'
import { startHarness, type Harness } from '../../fixtures/harness/harness'

/**
 * The OpenAPI document against the code (issue 11 item 1): every route but the demo site's
 * declares its contract, and every refusal a route's handler raises itself is listed on that
 * route. Refusals raised deeper (the engine, the auth layer) are the fuzz test's to catch.
 */

type Operation = {
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>
  'x-undocumented'?: boolean
}
type Doc = { paths: Record<string, Record<string, Operation>> }

const ROUTES_DIR = join(__dirname, '../../../src/main/api/routes')
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete'])

let h: Harness
let doc: Doc
const unused = () => {
  throw new Error('not on this core')
}
const idleDeviceHub: DeviceHub = {
  start: async () => undefined,
  register: unused,
  next: async () => null,
  take: unused,
  report: unused,
  remove: unused,
  delegate: () => null,
  approveElsewhere: () => false,
  stopPolls: () => undefined,
  close: async () => undefined,
}

// A team server node's document: the desktop's routes plus the account and device routes only
// `sitecall server` registers (teamAccounts.ts, devices.ts).
let serverHome: string
let server: Core
let serverDoc: Doc

beforeAll(async () => {
  h = await startHarness()
  const answer = await fetch(`${h.base}/openapi.json`, {
    headers: { authorization: `Bearer ${h.key}` },
  })
  doc = (await answer.json()) as Doc
  serverHome = mkdtempSync(join(tmpdir(), 'sitecall-openapi-server-'))
  server = createCore({
    home: serverHome,
    port: 0,
    rendererDir: null,
    keychain: null,
    serverNode: true,
    // Its device routes (issue 27 C) are served with a device hub, which needs PostgreSQL: the
    // document only needs the routes, so a hub that does nothing.
    devices: idleDeviceHub,
  })
  const serverBase = await server.listen()
  const serverAnswer = await fetch(`${serverBase}/openapi.json`, {
    headers: { authorization: `Bearer ${server.ownerToken}` },
  })
  serverDoc = (await serverAnswer.json()) as Doc
})

afterAll(async () => {
  await h.close()
  await server?.close()
  if (serverHome) rmSync(serverHome, { recursive: true, force: true })
})

const toOpenApi = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')

/** The codes an operation lists, from the `enum` of each refusal's envelope. */
function listedCodes(op: Operation): Set<string> {
  return new Set(
    JSON.stringify(op.responses)
      .match(/"enum":\[[^\]]*\]/g)
      ?.flatMap((m) => [...m.matchAll(/"([a-z_]+)"/g)].map((c) => c[1]!)) ?? [],
  )
}

/**
 * Each route a routes file registers with a literal path, with the codes of the
 * `new ServiceError('code', …)` written inside its registration (its handler), or inside a
 * function of the same file the handler calls (a handler cut into named functions).
 */
function thrownPerRoute(): Array<{ file: string; method: string; url: string; codes: string[] }> {
  const out: Array<{ file: string; method: string; url: string; codes: string[] }> = []
  for (const file of readdirSync(ROUTES_DIR).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(join(ROUTES_DIR, file), 'utf8')
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
    const functions = new Map<string, ts.FunctionDeclaration>()
    for (const statement of source.statements)
      if (ts.isFunctionDeclaration(statement) && statement.name)
        functions.set(statement.name.text, statement)
    const visit = (node: ts.Node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        METHODS.has(node.expression.name.text) &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0]) &&
        node.arguments[0].text.startsWith('/')
      ) {
        const codes: string[] = []
        const followed = new Set<ts.Node>()
        const collect = (inner: ts.Node) => {
          if (
            ts.isNewExpression(inner) &&
            inner.expression.getText(source) === 'ServiceError' &&
            inner.arguments?.[0] &&
            ts.isStringLiteral(inner.arguments[0])
          )
            codes.push(inner.arguments[0].text)
          const called =
            ts.isCallExpression(inner) && ts.isIdentifier(inner.expression)
              ? functions.get(inner.expression.text)
              : undefined
          if (called && !followed.has(called)) {
            followed.add(called)
            ts.forEachChild(called, collect)
          }
          ts.forEachChild(inner, collect)
        }
        node.arguments.slice(1).forEach(collect)
        out.push({
          file,
          method: node.expression.name.text,
          url: node.arguments[0].text,
          codes,
        })
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return out
}

describe('OpenAPI coverage', () => {
  it('describes every route but the demo site from its own contract', () => {
    expect(Object.keys(doc.paths)).not.toContain('/v1/auth/login')
    const paths = { ...doc.paths, ...serverDoc.paths }
    const undocumented = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op['x-undocumented'] && !path.startsWith('/demo/'))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    )
    expect(undocumented).toEqual([])
  })

  it('lists on each route every refusal its handler raises itself', () => {
    const routes = thrownPerRoute()
    // The reading must see the routes: most register with a literal path.
    expect(routes.length).toBeGreaterThan(30)
    expect(routes.some((r) => r.codes.length > 0)).toBe(true)
    const missing: string[] = []
    for (const route of routes) {
      const op = serverDoc.paths[toOpenApi(route.url)]?.[route.method]
      if (!op) {
        missing.push(
          `${route.method.toUpperCase()} ${route.url} (${route.file}): not in the document`,
        )
        continue
      }
      const listed = listedCodes(op)
      for (const code of route.codes)
        if (!listed.has(code))
          missing.push(`${route.method.toUpperCase()} ${route.url} (${route.file}): ${code}`)
    }
    expect(missing).toEqual([])
  })
})
