import { mkdtempSync, rmSync, existsSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { describeProcess, LOCK_FILE, lockDataDir } from '../../../src/main/store/dataDirLock'
import { isServiceError } from '../../../src/shared/errors'

let home: string

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-lock-unit-'))
})

afterEach(() => {
  rmSync(home, { recursive: true, force: true })
})

describe('lockDataDir', () => {
  it('refuses a second lock with resource_locked naming pid, command and start; frees on release', () => {
    const first = lockDataDir(home, 'sitecall serve', () => Date.UTC(2026, 0, 2, 3, 4, 5))
    if (process.platform !== 'win32')
      expect(statSync(join(home, LOCK_FILE)).mode & 0o777).toBe(0o600)
    let refusal: unknown = null
    try {
      lockDataDir(home, 'sitecall mcp')
    } catch (error) {
      refusal = error
    }
    expect(isServiceError(refusal) && refusal.code).toBe('resource_locked')
    expect((refusal as Error).message).toContain(
      `pid ${process.pid} (sitecall serve), running since 2026-01-02T03:04:05.000Z`,
    )
    first.release()
    expect(existsSync(join(home, LOCK_FILE))).toBe(false)
    const second = lockDataDir(home, 'sitecall mcp')
    // A stale release of the first lock must not remove the second's file.
    first.release()
    expect(existsSync(join(home, LOCK_FILE))).toBe(true)
    second.release()
  })

  it('describes a CLI process by its script and arguments', () => {
    expect(describeProcess(['/usr/bin/node', '/x/bin/sitecall.mjs', 'serve', '--port', '0'])).toBe(
      'sitecall serve --port 0',
    )
  })
})
