// The measures behind the house figures and rules (test/house/measure.ts), on small sources.
import { describe, expect, it } from 'vitest'
import { measureText, pinProblems, roomOf } from '../house/measure'

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `  f(${i})`).join('\n')

describe('measureText', () => {
  it('names every function with a body by its path and counts its lines from first to last token', () => {
    const source = [
      '/** A doc comment is not the function. */',
      'export function outer(): void {',
      '  const inner = () => {',
      lines(3),
      '  }',
      '  describe(() => 1)',
      '  describe(() => 2)',
      '}',
      'class Box { get size() { return 1 } constructor() {} method(): void {} }',
      'type Fn = (a: number) => void',
      'interface I { m(): void }',
      'const o = { key: function () {} }',
    ].join('\n')
    const rows = measureText('src/a.ts', source).functions.map((f) => [f.name, f.lines])
    expect(rows).toEqual([
      ['outer', 9],
      ['outer.inner', 5],
      ['outer.describe()', 1],
      ['outer.describe()#2', 1],
      ['get size', 1],
      ['constructor', 1],
      ['method', 1],
      ['key', 1],
    ])
  })

  it('counts a file`s lines as an editor numbers them', () => {
    expect(measureText('src/a.ts', 'a\nb\n').files).toEqual([{ file: 'src/a.ts', lines: 2 }])
    expect(measureText('src/a.ts', 'a\nb').files).toEqual([{ file: 'src/a.ts', lines: 2 }])
  })

  it('counts `as T` and `<T>x` casts but not `as const`', () => {
    const source = ['const a = b as string', 'const c = <number>d', "const e = ['x'] as const"]
    expect(measureText('src/a.ts', source.join('\n')).casts.map((c) => c.line)).toEqual([1, 2])
    expect(measureText('src/a.tsx', 'const a = <div>{b as string}</div>').casts).toHaveLength(1)
  })

  it('finds a bare catch: the error unused and the block empty or one constant statement', () => {
    const bare = [
      'try { a() } catch {}',
      'try { a() } catch (e) { return null }',
      'try { a() } catch { return }',
      'try { a() } catch { return [] }',
      'try { a() } catch { continue }',
      'try { a() } catch { found = false }',
      'try { a() } catch {\n  // a reason\n}',
    ]
    const kept = [
      'try { a() } catch (e) { return e }',
      'try { a() } catch (e) { log(e) }',
      'try { a() } catch { log("failed") }',
      'try { a() } catch { return other() }',
      'try { a() } catch { throw new Error("x") }',
      'try { a() } catch { b(); return null }',
    ]
    for (const text of bare)
      expect(measureText('src/a.ts', `function f() { ${text} }`).bareCatches, text).toHaveLength(1)
    for (const text of kept)
      expect(measureText('src/a.ts', `function f() { ${text} }`).bareCatches, text).toEqual([])
    const [one] = measureText('src/a.ts', `function f() { ${bare[6]} }`).bareCatches
    expect(one).toEqual({ file: 'src/a.ts', function: 'f', line: 1, commented: true })
  })
})

describe('pinProblems', () => {
  it('reports a new row, a row that grew and a stale pin, and nothing for a row that shrank', () => {
    const problems = pinProblems(
      [
        ['a.ts', 'grew', 130],
        ['a.ts', 'shrank', 150],
        ['a.ts', 'gone', 140],
      ],
      [
        ['a.ts', 'grew', 131],
        ['a.ts', 'shrank', 149],
        ['b.ts', 'new', 121],
      ],
      'long function',
    )
    expect(problems).toEqual([
      'long function grew: a.ts grew (130 -> 131)',
      'new long function: b.ts new (121)',
      'stale pin, remove it: a.ts gone (140, now gone or within the rule)',
    ])
  })
})

describe('roomOf', () => {
  it('names the rooms of docs/architecture.md', () => {
    expect(roomOf('src/main/store/db.ts')).toBe('src/main/store')
    expect(roomOf('src/main/serverNodes.ts')).toBe('src/main/server*.ts')
    expect(roomOf('src/main/server/devices.ts')).toBe('src/main/server')
    expect(roomOf('src/main/cliHar.ts')).toBe('src/main/cli*.ts')
    expect(roomOf('src/main/core.ts')).toBe('src/main/core.ts')
    expect(roomOf('src/shared/urls.ts')).toBe('src/shared')
  })
})
