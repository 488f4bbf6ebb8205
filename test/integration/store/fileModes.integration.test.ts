import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createStore } from '../../../src/main/store/store'
import { databasePath } from '../../../src/main/config'

let root: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sitecall-modes-'))
})

afterEach(() => {
  rmSync(root, { recursive: true, force: true })
})

const mode = (path: string) => statSync(path).mode & 0o777

describe.skipIf(process.platform === 'win32')('data dir file modes (issue 13 item 5)', () => {
  it('a new data dir is 0700 and the database, WAL and SHM 0600 under a lax umask', () => {
    const home = join(root, 'home')
    const before = process.umask(0o022)
    try {
      const store = createStore(databasePath(home))
      store.keys.create({ id: 'key_modes', tenant: 'local', label: 'modes' }, 0)
      expect(mode(home)).toBe(0o700)
      for (const suffix of ['', '-wal', '-shm'])
        expect(mode(`${databasePath(home)}${suffix}`)).toBe(0o600)
      store.close()
    } finally {
      process.umask(before)
    }
  })

  it('fixes an existing world-readable data dir and its files at start', () => {
    const home = join(root, 'old')
    mkdirSync(home, { mode: 0o755 })
    chmodSync(home, 0o755)
    const first = createStore(databasePath(home))
    first.close()
    writeFileSync(join(home, 'settings.json'), '{}')
    // Not ours: a data dir pointed at a folder of other things leaves their modes alone.
    writeFileSync(join(home, 'notes.sh'), 'echo hi')
    chmodSync(join(home, 'notes.sh'), 0o755)
    for (const file of ['sitecall.db', 'settings.json']) chmodSync(join(home, file), 0o644)
    chmodSync(home, 0o755)
    const store = createStore(databasePath(home))
    expect(mode(home)).toBe(0o700)
    expect(mode(join(home, 'sitecall.db'))).toBe(0o600)
    expect(mode(join(home, 'settings.json'))).toBe(0o600)
    expect(mode(join(home, 'notes.sh'))).toBe(0o755)
    store.close()
  })
})
