import { describe, expect, it } from 'vitest'
import { toolNeeds, type NeedsContext } from '../../../src/main/surface/toolNeeds'
import type { ToolSpec } from '../../../src/shared/toolSpec'

const tool = (login: ToolSpec['login']): ToolSpec =>
  ({
    siteHost: 'notes.example',
    steps: [
      {
        id: 'target',
        request: { method: 'GET', url: 'https://notes.example/api', headers: {}, body: null },
        extract: [],
      },
    ],
    ...(login ? { login } : {}),
  }) as unknown as ToolSpec

const context = (over: Partial<NeedsContext>): NeedsContext => ({
  vaultLocked: false,
  hasLogin: () => true,
  secretNames: new Set(),
  ...over,
})

describe('toolNeeds for a site behind HTTP authentication', () => {
  const basic = tool({ cookies: [], values: [], httpAuth: { scheme: 'basic' } })

  it('asks a sign-in when no login is saved', () => {
    expect(toolNeeds(basic, context({ hasLogin: () => false }))).toEqual([
      expect.objectContaining({ kind: 'login', host: 'notes.example' }),
    ])
  })

  it('asks a sign-in when the saved login keeps no username and password', () => {
    const needs = toolNeeds(basic, context({ hasPassword: () => false }))
    expect(needs).toEqual([expect.objectContaining({ kind: 'login', host: 'notes.example' })])
    expect(needs[0]!.message).toContain('HTTP Basic authentication')
  })

  it('needs nothing once the login keeps them, and never asks it of a cookie-only tool', () => {
    expect(toolNeeds(basic, context({ hasPassword: () => true }))).toEqual([])
    const cookies = tool({ cookies: ['sid'], values: [] })
    expect(toolNeeds(cookies, context({ hasPassword: () => false }))).toEqual([])
  })
})
