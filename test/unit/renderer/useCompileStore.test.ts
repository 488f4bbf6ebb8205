import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src/main/core'
import { createHttpTransport } from '../../../src/renderer/api'
import { useAppStore } from '../../../src/renderer/stores/useAppStore'
import { useCompileStore } from '../../../src/renderer/stores/useCompileStore'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { records, traceBuilder } from '../compiler/traceBuilder'

let home: string
let core: Core
let candidate: ToolSpec

// A search for a prefix, the search for the full query, and a stylesheet no tool can be made of.
const trace = traceBuilder()
  .fill('writ')
  .submit()
  .exchange('POST', '/api/search', { body: { query: 'writ' }, response: records('writ') })
  .fill('writing')
  .submit()
  .exchange('POST', '/api/search', { body: { query: 'writing' }, response: records('writing') })
  .exchange('GET', '/static/site.css', {
    type: 'stylesheet',
    mime: 'text/css',
    responseText: 'a{}',
  })
  .build()

// The store talks to a real core over the web transport, put where the Electron preload would be.
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-compile-store-'))
  core = createCore({ home, port: 0, rendererDir: null })
  const base = await core.listen()
  const transport = createHttpTransport(fetch, () => core.ownerToken, { baseUrl: base })
  Object.assign(globalThis, { window: { sitecall: transport } })
  core.store.traces.save(trace)
  const compiled = await core.handlers['compile.prepare']({
    traceId: trace.id,
    exchangeId: 'exc_2',
  })
  candidate = compiled.candidate!
})

afterAll(async () => {
  await core.close()
  rmSync(home, { recursive: true, force: true })
  Reflect.deleteProperty(globalThis, 'window')
})

beforeEach(() => {
  useCompileStore.setState({ pendingExchangeId: null, last: null })
  useAppStore.getState().dismiss()
})

describe('useCompileStore.prepareInstead', () => {
  it('compiles the chosen alternative and remembers the candidate it replaces', async () => {
    expect(candidate.evidence.alternatives.map((a) => a.exchangeId)).toContain('exc_1')
    const next = await useCompileStore.getState().prepareInstead(candidate, 'exc_1')
    expect(next?.evidence.targetExchangeId).toBe('exc_1')
    expect(next?.id).not.toBe(candidate.id)
    expect(core.store.tools.get(next!.id)?.status).toBe('candidate')
    const { last, pendingExchangeId } = useCompileStore.getState()
    expect(pendingExchangeId).toBeNull()
    expect(last).toMatchObject({
      from: { id: candidate.id, name: candidate.name },
      exchangeId: 'exc_1',
      explanation: null,
    })
    expect(last?.candidate?.id).toBe(next!.id)
  })

  it('keeps the current candidate and holds the explanation when the request does not compile', async () => {
    const next = await useCompileStore.getState().prepareInstead(candidate, 'exc_3')
    expect(next).toBeNull()
    const { last } = useCompileStore.getState()
    expect(last?.candidate).toBeNull()
    expect(last?.from.id).toBe(candidate.id)
    expect(last?.explanation?.reason).toEqual(expect.any(String))
    expect(useAppStore.getState().error).toBeNull()
  })

  it('shows a refused request in the error banner and records no switch', async () => {
    const next = await useCompileStore.getState().prepareInstead(candidate, 'exc_99')
    expect(next).toBeNull()
    expect(useAppStore.getState().error?.code).toBe('invalid_input')
    expect(useCompileStore.getState()).toMatchObject({ pendingExchangeId: null, last: null })
  })

  it('ignores a second press while the first is compiling', async () => {
    const before = core.store.tools.list().length
    const first = useCompileStore.getState().prepareInstead(candidate, 'exc_3')
    expect(useCompileStore.getState().pendingExchangeId).toBe('exc_3')
    const second = await useCompileStore.getState().prepareInstead(candidate, 'exc_1')
    expect(second).toBeNull()
    expect(await first).toBeNull()
    expect(useAppStore.getState().error).toBeNull()
    expect(useCompileStore.getState().last?.exchangeId).toBe('exc_3')
    expect(core.store.tools.list()).toHaveLength(before)
  })
})
