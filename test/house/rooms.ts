// Which room may import which (docs/architecture.md "The pipeline and the rooms"), denied by
// default: a room imports only the rooms its row in ROOM_IMPORTS names. The graph is read with
// dpdm, which resolves each import through tsconfig as the compiler does, so a file named like a
// room (`router/router.ts`, `api/server.ts`) is never taken for one. Checked by
// `test/unit/importCycles.test.ts` and by `npm run lint` (`test/house/checkRooms.ts`).
import { resolve } from 'node:path'
import { parseDependencyTree, type DependencyTree } from 'dpdm'

/** A room's allow-list: the rooms it may import, and why it sits where it does. */
export interface RoomRule {
  imports: string[]
  why: string
}

const SHARED = 'src/shared'

/**
 * Every room of src/ and the rooms it may import. A room is a folder of `src/main/`, a file at
 * its top, or a folder of `src/` outside main (see `roomOf`). An entry no import uses is stale
 * and fails the check, so each row says what the room does import, no more.
 */
export const ROOM_IMPORTS: Record<string, RoomRule> = {
  'src/shared': { imports: [], why: 'Contracts every process shares: no Node, no DOM.' },
  'src/renderer': { imports: [SHARED], why: 'The UI talks to main only through the contract.' },
  'src/preload': { imports: [SHARED], why: 'The bridge exposes the typed UI contract only.' },
  'src/main/config.ts': { imports: [], why: 'Where the data lives: read by the entries.' },
  'src/main/intent': { imports: [], why: 'Reads what people ask; pure, below its two readers.' },
  'src/main/verify': { imports: [SHARED], why: 'Judges an answer against a rule; pure.' },
  'src/main/demo': { imports: [SHARED], why: 'A site like any other: knows only the contracts.' },
  'src/main/store': { imports: [SHARED], why: 'SQLite and PostgreSQL repositories: the floor.' },
  'src/main/recorder': { imports: [SHARED], why: 'Browsers and captures, below what uses them.' },
  'src/main/events.ts': { imports: [SHARED], why: 'The event bus the surfaces stream from.' },
  'src/main/vault': { imports: ['src/main/store', SHARED], why: 'Keys and sealed secrets.' },
  'src/main/compiler': {
    imports: ['src/main/intent', 'src/main/verify', SHARED],
    why: 'Trace to tool; pure: no store, no browser, no network.',
  },
  'src/main/router': {
    imports: ['src/main/compiler', 'src/main/intent', SHARED],
    why: 'Intent to ranked tools from the facts the compiler gives a tool.',
  },
  'src/main/logins': {
    imports: ['src/main/recorder', 'src/main/store', 'src/main/vault', SHARED],
    why: 'Saved logins and sign-in flows over the vault, a browser and the store.',
  },
  'src/main/engine': {
    imports: [
      'src/main/compiler',
      'src/main/recorder',
      'src/main/store',
      'src/main/vault',
      'src/main/verify',
      SHARED,
    ],
    why: 'Runs tools; never finds them (router) nor signs in (logins).',
  },
  'src/main/server': {
    imports: ['src/main/engine', 'src/main/store', SHARED],
    why: 'The team server: devices and the run queue over the engine.',
  },
  'src/main/sync': {
    imports: ['src/main/engine', 'src/main/server', 'src/main/store', 'src/main/vault', SHARED],
    why: 'A desktop linked to a team server: sync and the device agent.',
  },
  'src/main/browse': {
    imports: [
      'src/main/compiler',
      'src/main/engine',
      'src/main/events.ts',
      'src/main/logins',
      'src/main/recorder',
      'src/main/router',
      'src/main/store',
      SHARED,
    ],
    why: 'Recording and browse sessions, index jobs: browsers driven for a person or an agent.',
  },
  'src/main/surface': {
    imports: [
      'src/main/browse',
      'src/main/compiler',
      'src/main/engine',
      'src/main/router',
      'src/main/store',
      'src/main/vault',
      SHARED,
    ],
    why: 'What REST, MCP and the UI share; below all three.',
  },
  'src/main/serverAccounts.ts': {
    imports: ['src/main/store', 'src/main/surface', SHARED],
    why: "The team server's accounts and their tokens.",
  },
  'src/main/serverNodes.ts': { imports: ['src/main/store'], why: 'Nodes of a team server.' },
  'src/main/api': {
    imports: [
      'src/main/browse',
      'src/main/demo',
      'src/main/engine',
      'src/main/events.ts',
      'src/main/logins',
      'src/main/router',
      'src/main/server',
      'src/main/serverAccounts.ts',
      'src/main/store',
      'src/main/surface',
      'src/main/vault',
      SHARED,
    ],
    why: 'REST: a surface; never imports mcp or app (core.ts hands it their routes).',
  },
  'src/main/mcp': {
    imports: [
      'src/main/browse',
      'src/main/engine',
      'src/main/events.ts',
      'src/main/router',
      'src/main/store',
      'src/main/surface',
      SHARED,
    ],
    why: 'MCP: a surface beside REST; never imports api or app.',
  },
  'src/main/app': {
    imports: [
      'src/main/browse',
      'src/main/compiler',
      'src/main/config.ts',
      'src/main/demo',
      'src/main/engine',
      'src/main/events.ts',
      'src/main/logins',
      'src/main/recorder',
      'src/main/router',
      'src/main/store',
      'src/main/surface',
      'src/main/sync',
      'src/main/vault',
      SHARED,
    ],
    why: "The UI's use cases: a surface; never imports api or mcp.",
  },
  'src/main/serverAccess.ts': {
    imports: ['src/main/api', 'src/main/store', 'src/main/surface', SHARED],
    why: "Access to a team server's REST: what its command prints and checks.",
  },
  'src/main/coreServices.ts': {
    imports: [
      'src/main/api',
      'src/main/browse',
      'src/main/config.ts',
      'src/main/engine',
      'src/main/events.ts',
      'src/main/logins',
      'src/main/recorder',
      'src/main/server',
      'src/main/store',
      'src/main/surface',
      'src/main/sync',
      'src/main/vault',
      SHARED,
    ],
    why: 'The composition root, first half: stores, the vault, the engine and the sessions.',
  },
  'src/main/coreSurfaces.ts': {
    imports: [
      'src/main/api',
      'src/main/app',
      'src/main/browse',
      'src/main/coreServices.ts',
      'src/main/engine',
      'src/main/mcp',
      'src/main/recorder',
      'src/main/serverAccounts.ts',
      'src/main/surface',
      'src/main/sync',
    ],
    why: 'The composition root, second half: the surfaces and the one HTTP server.',
  },
  'src/main/core.ts': {
    imports: [
      'src/main/api',
      'src/main/app',
      'src/main/browse',
      'src/main/config.ts',
      'src/main/coreServices.ts',
      'src/main/coreSurfaces.ts',
      'src/main/engine',
      'src/main/events.ts',
      'src/main/logins',
      'src/main/store',
      'src/main/surface',
      'src/main/vault',
    ],
    why: 'The composition root: builds every service once, wires the surfaces, closes in order.',
  },
  'src/main/desktop': {
    imports: [
      'src/main/api',
      'src/main/app',
      'src/main/browse',
      'src/main/events.ts',
      'src/main/logins',
      SHARED,
    ],
    why: "Electron's windows and IPC: the one room besides index.ts that knows electron.",
  },
  'src/main/index.ts': {
    imports: ['src/main/app', 'src/main/core.ts', 'src/main/desktop', 'src/main/mcp'],
    why: 'The Electron entry.',
  },
  'src/main/serverCommand.ts': {
    imports: [
      'src/main/api',
      'src/main/config.ts',
      'src/main/core.ts',
      'src/main/server',
      'src/main/serverAccess.ts',
      'src/main/serverNodes.ts',
      'src/main/store',
      SHARED,
    ],
    why: '`sitecall server`: an entry.',
  },
  'src/main/cliLogin.ts': { imports: ['src/main/core.ts'], why: '`sitecall login`: an entry.' },
  'src/main/cliSeenLogin.ts': {
    imports: ['src/main/cliLogin.ts', 'src/main/logins', 'src/main/vault', SHARED],
    why: 'Logins seen in a recording, kept from the command line.',
  },
  'src/main/cliHar.ts': {
    imports: [
      'src/main/cliSeenLogin.ts',
      'src/main/compiler',
      'src/main/config.ts',
      'src/main/core.ts',
      'src/main/logins',
      'src/main/recorder',
      'src/main/store',
      'src/main/vault',
      SHARED,
    ],
    why: '`sitecall har`: an entry.',
  },
  'src/main/cliMcp.ts': {
    imports: [
      'src/main/config.ts',
      'src/main/core.ts',
      'src/main/mcp',
      'src/main/store',
      'src/main/surface',
      SHARED,
    ],
    why: '`sitecall mcp` (stdio): an entry.',
  },
  'src/main/cliSync.ts': {
    imports: [
      'src/main/config.ts',
      'src/main/core.ts',
      'src/main/store',
      'src/main/sync',
      'src/main/vault',
      SHARED,
    ],
    why: '`sitecall sync`: an entry.',
  },
  'src/main/cli.ts': {
    imports: [
      'src/main/app',
      'src/main/cliHar.ts',
      'src/main/cliLogin.ts',
      'src/main/cliMcp.ts',
      'src/main/cliSeenLogin.ts',
      'src/main/cliSync.ts',
      'src/main/config.ts',
      'src/main/core.ts',
      'src/main/demo',
      'src/main/mcp',
      'src/main/recorder',
      'src/main/serverCommand.ts',
      'src/main/store',
      SHARED,
    ],
    why: 'The command line: an entry.',
  },
}

/**
 * The room of a file path from the repository root (`/` separated): its folder under
 * `src/main/` (`src/main/api/routes/x.ts` is in `src/main/api`), a file at the top of `src/main/`
 * is a room of its own, and outside `src/main/` the folder under `src/`.
 */
export function roomOf(file: string): string {
  const parts = file.split('/')
  if (parts[1] !== 'main') return parts.slice(0, 2).join('/')
  return parts.length > 3 ? parts.slice(0, 3).join('/') : file
}

/** Every import of src/ (`.ts`, `.tsx`, type-only and dynamic ones too), resolved by dpdm. */
export function readImportTree(root: string): Promise<DependencyTree> {
  return parseDependencyTree(['src/**/*.ts', 'src/**/*.tsx'], {
    context: root,
    tsconfig: resolve(root, 'tsconfig.json'),
    transform: false,
    skipDynamicImports: false,
  })
}

/** The rooms each room imports (itself left out), from dpdm's file tree; files outside src/ skipped. */
export function roomGraph(tree: DependencyTree): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>()
  for (const [file, dependencies] of Object.entries(tree)) {
    if (!file.startsWith('src/')) continue
    const from = roomOf(file)
    const to = graph.get(from) ?? new Set<string>()
    graph.set(from, to)
    for (const dependency of dependencies ?? []) {
      if (!dependency.id?.startsWith('src/')) continue
      const room = roomOf(dependency.id)
      if (room !== from) to.add(room)
    }
  }
  return graph
}

/** What breaks the allow-lists, each line a sentence a reader can act on. */
export interface RoomProblems {
  /** `from -> to` imports no row allows. */
  denied: string[]
  /** `from -> to` entries no import uses: remove them, so the list says what is. */
  stale: string[]
  /** Rooms in src/ without a row: add one, with what they import and why. */
  unlisted: string[]
  /** Rows for rooms that no longer exist. */
  gone: string[]
}

/** Compares a room graph (`roomGraph`) with allow-lists (`ROOM_IMPORTS`'s shape). */
export function roomProblems(
  graph: Map<string, Set<string>>,
  rules: Record<string, RoomRule>,
): RoomProblems {
  const problems: RoomProblems = { denied: [], stale: [], unlisted: [], gone: [] }
  for (const [from, to] of [...graph].sort(([a], [b]) => a.localeCompare(b))) {
    const rule = rules[from]
    if (!rule) {
      problems.unlisted.push(`${from} (imports ${[...to].sort().join(', ') || 'nothing'})`)
      continue
    }
    for (const room of [...to].sort())
      if (!rule.imports.includes(room)) problems.denied.push(`${from} -> ${room}`)
    for (const room of rule.imports) if (!to.has(room)) problems.stale.push(`${from} -> ${room}`)
  }
  for (const room of Object.keys(rules)) if (!graph.has(room)) problems.gone.push(room)
  return problems
}
