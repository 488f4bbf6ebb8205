// `npm run lint`'s room check: fails when a room imports one its allow-list does not name, when
// an entry is stale, or when a room has no row (test/house/rooms.ts). Prints what to change.
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readImportTree, roomGraph, roomProblems, ROOM_IMPORTS } from './rooms'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const problems = roomProblems(roomGraph(await readImportTree(root)), ROOM_IMPORTS)
const sections: [string, string[]][] = [
  [
    'imports no allow-list names (move the code down, or add the room with its reason)',
    problems.denied,
  ],
  ['allow-list entries no import uses (remove them)', problems.stale],
  ['rooms without a row in ROOM_IMPORTS', problems.unlisted],
  ['rows for rooms that no longer exist', problems.gone],
]
let failed = false
for (const [title, lines] of sections) {
  if (lines.length === 0) continue
  failed = true
  console.error(`test/house/rooms.ts: ${title}:\n${lines.map((l) => `  ${l}`).join('\n')}`)
}
if (failed) process.exit(1)
console.log(`rooms: every import allowed, ${Object.keys(ROOM_IMPORTS).length} rows, none stale`)
