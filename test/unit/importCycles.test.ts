import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseCircular, type DependencyTree } from 'dpdm'
import { beforeAll, describe, expect, it } from 'vitest'
import { readImportTree, roomGraph, roomOf, roomProblems, ROOM_IMPORTS } from '../house/rooms'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/**
 * Room circles known and left to their owners, each as its rooms in sorted order; an entry that
 * no longer forms a circle fails the last test, so the list only shrinks.
 */
const KNOWN_ROOM_CIRCLES: string[][] = []

/** The strongly connected groups of more than one room (Tarjan), each sorted: the circles. */
function circlesOf(graph: Map<string, Set<string>>): string[][] {
  const order = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const circles: string[][] = []
  const visit = (room: string) => {
    order.set(room, order.size)
    low.set(room, order.get(room)!)
    stack.push(room)
    onStack.add(room)
    for (const next of graph.get(room) ?? []) {
      if (!order.has(next)) {
        visit(next)
        low.set(room, Math.min(low.get(room)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(room, Math.min(low.get(room)!, order.get(next)!))
    }
    if (low.get(room) !== order.get(room)) return
    const group: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      group.push(member)
    } while (member !== room)
    if (group.length > 1) circles.push(group.sort())
  }
  for (const room of graph.keys()) if (!order.has(room)) visit(room)
  return circles
}

describe('the import graph of src/', () => {
  let tree: DependencyTree
  beforeAll(async () => {
    tree = await readImportTree(root)
  }, 60_000)

  // Issue 11 "Rooms": no module reaches itself through its imports, type-only ones included
  // (a circle of types still ties two rooms into one).
  it('has no import circle', () => {
    const circles = parseCircular(tree).map((c) => c.join(' -> '))
    expect(circles).toEqual([])
  })

  // Issue 28: imports point down between rooms too, so no room reaches itself through others
  // (the surfaces api, mcp and app share through src/main/surface, never through each other).
  it('has no import circle between rooms', () => {
    const known = new Set(KNOWN_ROOM_CIRCLES.map((c) => c.join(' <-> ')))
    const circles = circlesOf(roomGraph(tree)).map((c) => c.join(' <-> '))
    expect(circles.filter((c) => !known.has(c))).toEqual([])
  })

  it('has none of the surfaces import another', () => {
    const graph = roomGraph(tree)
    const surfaces = ['src/main/api', 'src/main/mcp', 'src/main/app']
    const crossings = surfaces.flatMap((from) =>
      surfaces.filter((to) => graph.get(from)?.has(to)).map((to) => `${from} -> ${to}`),
    )
    const upward = surfaces.filter((s) => graph.get('src/main/surface')?.has(s))
    expect(crossings).toEqual([])
    expect(upward).toEqual([])
  })

  it('lists only room circles that still exist', () => {
    const circles = new Set(circlesOf(roomGraph(tree)).map((c) => c.join(' <-> ')))
    expect(KNOWN_ROOM_CIRCLES.map((c) => c.join(' <-> ')).filter((c) => !circles.has(c))).toEqual(
      [],
    )
  })

  // Issue 28 item 9: denied by default. A room imports only what its row names, and a row names
  // only what the room imports, so the table is the layering as it is (test/house/rooms.ts).
  it('has every room import only what its allow-list names, and no stale entry', () => {
    expect(roomProblems(roomGraph(tree), ROOM_IMPORTS)).toEqual({
      denied: [],
      stale: [],
      unlisted: [],
      gone: [],
    })
  })

  it('finds a denied import, a stale entry, a room without a row and a row without a room', () => {
    const graph = new Map([
      ['src/main/a', new Set(['src/main/b', 'src/shared'])],
      ['src/main/b', new Set(['src/shared'])],
      ['src/main/new.ts', new Set<string>()],
      ['src/shared', new Set<string>()],
    ])
    const rules = {
      'src/main/a': { imports: ['src/shared'], why: '' },
      'src/main/b': { imports: ['src/main/c', 'src/shared'], why: '' },
      'src/main/c': { imports: [], why: '' },
      'src/shared': { imports: [], why: '' },
    }
    expect(roomProblems(graph, rules)).toEqual({
      denied: ['src/main/a -> src/main/b'],
      stale: ['src/main/b -> src/main/c'],
      unlisted: ['src/main/new.ts (imports nothing)'],
      gone: ['src/main/c'],
    })
  })

  it('finds a circle between rooms when there is one', () => {
    const graph = new Map([
      ['src/main/a', new Set(['src/main/b'])],
      ['src/main/b', new Set(['src/main/c.ts'])],
      ['src/main/c.ts', new Set(['src/main/a', 'src/shared'])],
      ['src/shared', new Set<string>()],
    ])
    expect(circlesOf(graph)).toEqual([['src/main/a', 'src/main/b', 'src/main/c.ts']])
    expect(roomOf('src/main/api/routes/search.ts')).toBe('src/main/api')
    expect(roomOf('src/main/core.ts')).toBe('src/main/core.ts')
    expect(roomOf('src/shared/errors.ts')).toBe('src/shared')
  })
})
