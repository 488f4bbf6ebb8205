import { Ajv2020 } from 'ajv/dist/2020.js'
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  EXECUTE_BODY_SCHEMA,
  PREPARE_BODY_SCHEMA,
  SEARCH_BODY_SCHEMA,
  TASK_RUN_BODY_SCHEMA,
} from '../../../src/shared/accountApiSchemas'
import { REST_ERROR_CODES, RUN_FAILURE_CODES } from '../../../src/shared/errors'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { makeSearchTool } from '../../fixtures/harness/searchTool'

type Operation = {
  operationId: string
  tags: string[]
  security: Array<Record<string, string[]>>
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>
  'x-undocumented'?: boolean
}
type Doc = {
  openapi: string
  info: { version: string }
  paths: Record<string, Record<string, Operation>>
  components: {
    schemas: Record<string, { properties?: Record<string, never> }>
    securitySchemes: Record<string, Record<string, unknown>>
  }
  'x-tools': Array<{ name: string; call: string; inputs: unknown }>
}

let h: Harness
let tool: ToolSpec
let doc: Doc

beforeAll(async () => {
  h = await startHarness()
  ;({ tool } = await makeSearchTool(h.core, h.site))
  const answer = await fetch(`${h.base}/openapi.json`, {
    headers: { authorization: `Bearer ${h.key}` },
  })
  expect(answer.status).toBe(200)
  doc = (await answer.json()) as Doc
})

afterAll(async () => {
  await h.close()
})

/**
 * Every route Fastify knows, from its own route tree (`printRoutes`), not from our catalogue:
 * `METHOD /path` with `:params`, HEAD left out (Fastify adds one beside each GET).
 */
function fastifyRoutes(): string[] {
  const tree = h.core.server.printRoutes({ commonPrefix: false })
  const stack: string[] = []
  const out: string[] = []
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.*)$/.exec(line)
    if (!match) continue
    const depth = match[1]!.length / 4
    const [, label, methods] = /^(.*?)(?: \(([^)]*)\))?$/.exec(match[2]!)!
    stack.length = depth
    stack.push(label!)
    if (!methods) continue
    for (const method of methods.split(',').map((m) => m.trim()))
      if (method !== 'HEAD') out.push(`${method} ${stack.join('')}`)
  }
  return out
}

const toOpenApi = (path: string) =>
  path.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{wildcard}')

function operations(): Array<[string, string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(
      ([method, op]) => [method.toUpperCase(), path, op] as [string, string, Operation],
    ),
  )
}

describe('GET /openapi.json', () => {
  it('is public and declares OpenAPI 3.1.0 with the version 2026.09.28', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.version).toBe('2026.09.28')
  })

  it('validates with an OpenAPI 3.1 validator, which refuses a broken copy', async () => {
    const result = await new Validator().validate(structuredClone(doc) as never)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    // The same validator must be able to say no: Swagger 2's `in: body` is not OpenAPI 3.1.
    const broken = structuredClone(doc) as unknown as {
      paths: Record<string, Record<string, { parameters: unknown[] }>>
    }
    broken.paths['/v1/tools/search']!.post!.parameters.push({ name: 'body', in: 'body' })
    expect((await new Validator().validate(broken as never)).valid).toBe(false)
  })

  it('compiles every schema it holds as JSON Schema 2020-12', () => {
    const ajv = new Ajv2020({ strict: false })
    ajv.addSchema({ $id: 'doc', components: doc.components } as never)
    const schemas: unknown[] = []
    for (const [, , op] of operations()) {
      for (const media of Object.values(op.requestBody?.content ?? {})) schemas.push(media.schema)
      for (const r of Object.values(op.responses))
        for (const media of Object.values(r.content ?? {})) schemas.push(media.schema)
    }
    expect(schemas.length).toBeGreaterThan(50)
    for (const schema of schemas) {
      const rebased = JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components', '"doc#/components'),
      )
      expect(() => ajv.compile(rebased)).not.toThrow()
    }
  })

  it('refuses a foreign Origin like every other route', async () => {
    const answer = await fetch(`${h.base}/openapi.json`, {
      headers: { origin: 'https://evil.example' },
    })
    expect(answer.status).toBe(403)
    expect(await answer.json()).toEqual({
      error: { code: 'forbidden', message: expect.any(String) },
    })
  })
})

describe('route coverage', () => {
  it('lists every route Fastify knows (HEAD aside), and no route it does not', () => {
    const known = fastifyRoutes()
    expect(known.length).toBeGreaterThan(40)
    const documented = new Set(operations().map(([method, path]) => `${method} ${path}`))
    const missing = known.filter((r) => !documented.has(toOpenApi(r)))
    expect(missing).toEqual([])
    expect(documented.size).toBe(new Set(known.map(toOpenApi)).size)
  })

  it('names the routes that take a body without a schema of their own', () => {
    const generic = operations()
      .filter(
        ([method, , op]) =>
          op['x-undocumented'] && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method),
      )
      .map(([method, path]) => `${method} ${path}`)
    // The list to tighten: the demo site's own forms and APIs, and any route added without docs.
    console.info(`Routes with a generic body:\n  ${generic.join('\n  ')}`)
    for (const [method, path, op] of operations().filter(([, , o]) => o['x-undocumented'])) {
      expect(op.responses.default, `${method} ${path}`).toBeDefined()
      if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(method))
        expect(op.requestBody?.content['application/json']?.schema).toEqual({
          $ref: '#/components/schemas/Object',
        })
      if (!path.startsWith('/demo/')) expect(op.tags).toEqual(['undocumented'])
    }
  })
})

describe('request and error schemas', () => {
  const body = (path: string, method = 'post') =>
    doc.paths[path]![method]!.requestBody!.content['application/json']!.schema

  it('documents bodies with the very schemas the routes validate with', () => {
    // As JSON: the TypeBox schemas carry a symbol of their kind, which JSON does not.
    const json = (schema: object) => JSON.parse(JSON.stringify(schema)) as unknown
    expect(body('/v1/tools/search')).toEqual(json(SEARCH_BODY_SCHEMA))
    expect(body('/v1/tool-router')).toEqual(json(SEARCH_BODY_SCHEMA))
    expect(body('/v1/tools/prepare')).toEqual(json(PREPARE_BODY_SCHEMA))
    expect(body('/api/v1/runs')).toEqual(json(TASK_RUN_BODY_SCHEMA))
    expect(body('/v1/tools/{id}/execute')).toEqual(json(EXECUTE_BODY_SCHEMA))
  })

  it('defines Error with every code of src/shared/errors.ts', () => {
    const error = doc.components.schemas.Error as unknown as {
      properties: { error: { properties: { code: { enum: string[] } } } }
    }
    expect(new Set(error.properties.error.properties.code.enum)).toEqual(
      new Set([...REST_ERROR_CODES, ...RUN_FAILURE_CODES]),
    )
  })

  it('lists per operation and status docs/interface.md codes it can answer', () => {
    const call = doc.paths['/api/v1/sites/{siteHost}/call/{toolId}']!.post!
    const codes = (status: string) =>
      (
        (call.responses[status]!.content!['application/json']!.schema as { allOf?: unknown[] })
          .allOf?.[1] as { properties: { error: { properties: { code: { enum: string[] } } } } }
      ).properties.error.properties.code.enum
    expect(codes('401')).toEqual(['unauthorized'])
    expect(codes('403')).toEqual(['forbidden', 'not_in_scope', 'revoked'])
    expect(codes('409')).toEqual(['idempotency_conflict', 'tool_quarantined'])
    expect(codes('422')).toEqual(['unknown_argument'])
    expect(codes('402')).toEqual(['insufficient_paid_credits', 'quota_exceeded'])
    expect(call.responses['504']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/RunTimeoutError',
    })
    expect(Object.keys(call.responses)).toEqual(
      expect.arrayContaining(['200', '202', '400', '404', '429', '500', '503']),
    )
  })

  it('answers the token endpoint errors in the RFC 6749 shape', () => {
    const token = doc.paths['/oauth/token']!.post!
    expect(token.responses['400']!.content!['application/json']!.schema).toMatchObject({
      oneOf: [{ $ref: '#/components/schemas/OAuthError' }, { allOf: expect.any(Array) }],
    })
    expect(token.responses['401']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/OAuthError',
    })
  })
})

describe('security and tools', () => {
  it('declares the bearer key and the OAuth code flow with its URLs', () => {
    const { bearer, oauth2 } = doc.components.securitySchemes
    expect(bearer).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(oauth2).toMatchObject({
      type: 'oauth2',
      flows: {
        authorizationCode: {
          authorizationUrl: `${h.base}/oauth/authorize`,
          tokenUrl: `${h.base}/oauth/token`,
          scopes: expect.objectContaining({ 'tools:read': expect.any(String) }),
        },
      },
    })
    expect(doc.paths['/v1/tools/search']!.post!.security).toEqual([
      { bearer: [] },
      { oauth2: ['tools:read'] },
    ])
    // docs/architecture.md "Rules that cut across": every route but the OAuth metadata takes a key or token (issue 13).
    expect(doc.paths['/openapi.json']!.get!.security).toEqual([
      { bearer: [] },
      { oauth2: ['tools:read'] },
    ])
    expect(doc.paths['/.well-known/oauth-authorization-server']!.get!.security).toEqual([])
    expect(doc.paths['/v1/vault/unlock']!.post!.security).toEqual([{ ownerToken: [] }])
  })

  it('answers 401 without a key, and another workspace sees none of the owner’s tools', async () => {
    expect((await fetch(`${h.base}/openapi.json`)).status).toBe(401)
    const other = h.core.store.keys.create(
      { id: 'key_other_ws', tenant: 'other-workspace', label: 'other' },
      Date.now(),
    ).key
    const theirs = (await (
      await fetch(`${h.base}/openapi.json`, { headers: { authorization: `Bearer ${other}` } })
    ).json()) as Doc
    expect(theirs['x-tools']).toEqual([])
    expect(Object.keys(theirs.paths)).toEqual(Object.keys(doc.paths))
  })

  it('lists the verified tools of surface A under x-tools', () => {
    expect(doc['x-tools']).toEqual([
      expect.objectContaining({
        name: tool.name,
        call: `/api/v1/sites/${tool.siteHost}/call/${tool.name}`,
        inputs: tool.inputs,
      }),
    ])
  })
})
