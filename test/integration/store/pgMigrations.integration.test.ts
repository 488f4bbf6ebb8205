/**
 * Migrations of the PostgreSQL store (issue 27 A): one versioned set, applied once even when
 * several nodes start together. Five processes, each with its own connection, are released at
 * once; the advisory lock lets one apply the set while the others wait and find nothing to do.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultPgMigrationsDir } from '../../../src/main/store/postgres/migrate'
import { pgUnavailable, startPgCluster, type PgCluster } from './pgCluster'

const NODE_SCRIPT = fileURLToPath(new URL('./migrateNode.ts', import.meta.url))
const skip = pgUnavailable()

interface Started {
  child: ChildProcess
  ready: Promise<void>
  done: Promise<{ code: number | null; out: string; err: string }>
}

function startNode(url: string, nodeId: string): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', NODE_SCRIPT, url, nodeId], {
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const ready = new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      if (line === 'ready') resolve()
      else out += line
    })
    child.once('exit', () => reject(new Error(`node ${nodeId} exited before ready: ${err}`)))
  })
  const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, out, err })),
  )
  return { child, ready, done }
}

describe.skipIf(skip !== null)(`PostgreSQL migrations${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PgCluster
  beforeAll(async () => {
    cluster = await startPgCluster()
  }, 120_000)
  afterAll(() => cluster?.close())

  it('five nodes started together apply the set once', async () => {
    const url = await cluster.createDatabase('race')
    const nodes = ['n1', 'n2', 'n3', 'n4', 'n5'].map((id) => startNode(url, id))
    await Promise.all(nodes.map((n) => n.ready))
    for (const node of nodes) node.child.stdin!.write('go\n')
    const results = await Promise.all(nodes.map((n) => n.done))
    for (const r of results) expect(r, r.err).toMatchObject({ code: 0 })
    const versions = readdirSync(defaultPgMigrationsDir())
      .filter((f) => /^\d{3}_.+\.sql$/.test(f))
      .map((f) => Number(f.slice(0, 3)))
    const applied = results.map((r) => JSON.parse(r.out) as number[])
    // One node applied every version; the four others found nothing left to apply.
    expect(applied.filter((a) => a.length > 0)).toEqual([versions])
    expect(applied.filter((a) => a.length === 0)).toHaveLength(4)
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      const rows = (
        await client.query<{ version: number; applied_by: string }>(
          'SELECT version, applied_by FROM schema_migrations ORDER BY version',
        )
      ).rows
      expect(rows.map((r) => r.version)).toEqual(versions)
      expect(new Set(rows.map((r) => r.applied_by)).size).toBe(1)
    } finally {
      await client.end()
    }
  }, 120_000)
})
