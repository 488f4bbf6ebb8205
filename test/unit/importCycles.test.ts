import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseCircular, parseDependencyTree } from 'dpdm'
import { describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

describe('the import graph of src/', () => {
  // Issue 11 "Rooms": no module reaches itself through its imports, type-only ones included
  // (a circle of types still ties two rooms into one).
  it('has no import circle', async () => {
    const tree = await parseDependencyTree(['src/**/*.ts', 'src/**/*.tsx'], {
      context: root,
      tsconfig: resolve(root, 'tsconfig.json'),
      transform: false,
      skipDynamicImports: false,
    })
    const circles = parseCircular(tree).map((c) => c.join(' -> '))
    expect(circles).toEqual([])
  }, 60_000)
})
