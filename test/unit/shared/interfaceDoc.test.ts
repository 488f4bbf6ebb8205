import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ERROR_STATUS, REST_ERROR_CODES, RUN_FAILURE_CODES } from '../../../src/shared/errors'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const doc = readFileSync(resolve(root, 'docs/interface.md'), 'utf8')

/**
 * Every row of docs/interface.md's error tables, as code → the HTTP statuses of its rows: a row
 * starts with a back-quoted code and its second cell lists statuses ("409", "429, 503").
 */
function documentedStatuses(markdown: string): Map<string, Set<number>> {
  const rows = new Map<string, Set<number>>()
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').map((c) => c.trim())
    const code = /^`([a-z_]+)`$/.exec(cells[1] ?? '')?.[1]
    const statuses = cells[2]?.match(/^\d{3}(, \d{3})*$/)?.[0]
    if (!code || !statuses) continue
    const known = rows.get(code) ?? new Set<number>()
    for (const s of statuses.split(', ')) known.add(Number(s))
    rows.set(code, known)
  }
  return rows
}

describe('docs/interface.md, the interface reference the code cites', () => {
  it('lists every error code with the HTTP statuses src/shared/errors.ts gives it', () => {
    const rows = documentedStatuses(doc)
    const codes = [...new Set([...REST_ERROR_CODES, ...RUN_FAILURE_CODES])]
    expect(codes.filter((c) => !rows.has(c))).toEqual([])
    const differing = codes
      .filter((c) => rows.has(c))
      .map((c) => [c, [...rows.get(c)!].sort().join(','), [...ERROR_STATUS[c]].sort().join(',')])
      .filter(([, documented, coded]) => documented !== coded)
    expect(differing).toEqual([])
    expect([...rows.keys()].filter((c) => !(codes as string[]).includes(c))).toEqual([])
  })
})
