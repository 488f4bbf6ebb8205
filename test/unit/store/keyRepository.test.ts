import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../../src/main/store/db'
import { createKeyRepository, type KeyRepository } from '../../../src/main/store/keyRepository'
import { createToolRepository } from '../../../src/main/store/toolRepository'
import type { ToolSpec } from '../../../src/shared/toolSpec'

let home: string
/** Two connections to one real file, as the app and a second process (`sitecall keys`) hold. */
let db: Db
let otherDb: Db
let keys: KeyRepository
let other: KeyRepository

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-keys-'))
  const path = join(home, 'sitecall.db')
  db = openDatabase(path)
  otherDb = openDatabase(path)
  keys = createKeyRepository(db)
  other = createKeyRepository(otherDb)
})

afterEach(() => {
  otherDb.close()
  db.close()
  rmSync(home, { recursive: true, force: true })
})

describe('key lookups kept between requests', () => {
  it('see a revoke at once, made here or through another connection', () => {
    const first = keys.create({ id: 'key_a', tenant: 'local', label: 'a' }, 1)
    const second = keys.create({ id: 'key_b', tenant: 'local', label: 'b' }, 1)
    expect(keys.findByKey(first.key)?.revokedAt).toBeNull()
    expect(keys.findByKey(second.key)?.revokedAt).toBeNull()

    expect(keys.revoke('key_a', 50)).toBe(true)
    expect(keys.findByKey(first.key)?.revokedAt).toBe(50)

    expect(other.revoke('key_b', 60)).toBe(true)
    expect(keys.findByKey(second.key)?.revokedAt).toBe(60)
  })

  it('find a key another connection created after an unknown-key lookup, and the last use', () => {
    expect(keys.findByKey('svc_live_unknown')).toBeNull()
    const { key } = other.create({ id: 'key_c', tenant: 'local', label: 'c' }, 1)
    expect(keys.findByKey(key)).toMatchObject({ id: 'key_c', lastUsedAt: null })
    keys.touch('key_c', 70)
    expect(keys.findByKey(key)?.lastUsedAt).toBe(70)
  })

  it('hand out copies: changing an answer does not change the next one', () => {
    const { key } = keys.create({ id: 'key_d', tenant: 'local', label: 'd' }, 1)
    const found = keys.findByKey(key)!
    found.revokedAt = 99
    found.tenant = 'elsewhere'
    expect(keys.findByKey(key)).toMatchObject({ revokedAt: null, tenant: 'local' })
  })
})

describe('tool lookups kept between calls', () => {
  it('see an edit through another connection at once, by id and by name', () => {
    const tools = createToolRepository(db, 'local')
    const elsewhere = createToolRepository(otherDb, 'local')
    const tool = {
      id: 'tool_1',
      name: 'search',
      siteHost: 'x.example',
      status: 'verified',
      createdAt: 1,
      updatedAt: 1,
    } as unknown as ToolSpec
    tools.save(tool)
    expect(tools.getByName('x.example', 'search')?.status).toBe('verified')
    elsewhere.save({ ...tool, status: 'quarantined', updatedAt: 2 })
    expect(tools.getByName('x.example', 'search')?.status).toBe('quarantined')
    expect(tools.get('tool_1')?.status).toBe('quarantined')
  })
})
