import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { compileHarCommand, MAX_HAR_BYTES } from '../../src/main/cliHar'
import { isServiceError } from '../../src/shared/errors'

let dir: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitecall-har-size-'))
})

afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('compile --har on a huge file (issue 13 item 8)', () => {
  it('refuses a HAR over the limit with invalid_input saying the limit, before reading it', async () => {
    const file = join(dir, 'huge.har')
    writeFileSync(file, '{"log":{"entries":[')
    // Sparse: the size is what is checked, no disk is spent.
    truncateSync(file, MAX_HAR_BYTES + 1)
    const error = await compileHarCommand(['--har', file, '--intent', 'list items']).then(
      () => null,
      (e: unknown) => e,
    )
    expect(isServiceError(error) && error.code).toBe('invalid_input')
    expect((error as Error).message).toContain(`up to ${MAX_HAR_BYTES / 1024 / 1024} MB`)
  })
})
