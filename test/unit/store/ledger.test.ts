import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defaultMigrationsDir, openDatabase } from '../../../src/main/store/db'
import { FREE_GRANT_CREDITS } from '../../../src/main/store/ledgerRepository'
import { createStore, type SqliteStore } from '../../../src/main/store/store'

let dir: string
let store: SqliteStore

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitecall-ledger-'))
  store = createStore(join(dir, 'sitecall.db'))
})

afterEach(() => {
  store.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A run of `tenant` that ended at `at` (ms), billed or not. */
function endedRun(id: string, tenant: string, at: number, billed: boolean): void {
  store.runs.create(
    {
      runId: id,
      tenant,
      toolId: 'tool_x',
      capabilityId: null,
      via: 'http',
      inputs: {},
      inputHash: 'h',
      idempotencyKey: null,
      deadlineMs: null,
      status: 'working',
      billOnSuccess: billed,
    },
    at,
  )
  store.runs.transition(id, { status: 'succeeded', result: {}, billed, finished: true }, at)
}

describe('run charges as a running balance (issue 12)', () => {
  it('counts each charged run in the balance and lists it by its run, without a ledger row', () => {
    expect(store.ledger.usage('local', 1).balance).toBe(FREE_GRANT_CREDITS)
    endedRun('lrun_1', 'local', 10, true)
    expect(store.ledger.chargeRun('local', 10)).toBe(true)
    endedRun('lrun_2', 'local', 20, false)
    endedRun('lrun_3', 'acme', 30, true)
    expect(store.ledger.chargeRun('acme', 30)).toBe(true)
    store.ledger.charge('local', 'execute:op-1', 1, 'tool execution', 40)
    expect(store.ledger.usage('local', 50)).toMatchObject({
      balance: FREE_GRANT_CREDITS - 2,
      charged: 2,
    })
    expect(store.ledger.entries('local', 10).map((e) => [e.kind, e.ref, e.amount])).toEqual([
      ['charge', 'execute:op-1', -1],
      ['charge', 'run:lrun_1', -1],
      ['grant', 'grant:free', FREE_GRANT_CREDITS],
    ])
    const rows = store.db.prepare(`SELECT ref FROM ledger WHERE ref LIKE 'run:%'`).all()
    expect(rows).toEqual([])
  })

  it('counts the free grant from the first read but writes it only with the first movement', () => {
    const rows = () =>
      store.db.prepare(`SELECT ref FROM ledger WHERE tenant = 'local' ORDER BY id`).all()
    expect(store.ledger.usage('local', 1).balance).toBe(FREE_GRANT_CREDITS)
    expect(rows()).toEqual([])
    store.ledger.charge('local', 'execute:op-1', 1, 'tool execution', 2)
    expect(rows()).toEqual([{ ref: 'grant:free' }, { ref: 'execute:op-1' }])
    expect(store.ledger.usage('local', 3).balance).toBe(FREE_GRANT_CREDITS - 1)
  })

  it('refuses a run charge once the balance is empty, and keeps the count across a restart', () => {
    store.ledger.charge('local', 'test:all', FREE_GRANT_CREDITS - 1, 'spent', 1)
    expect(store.ledger.chargeRun('local', 2)).toBe(true)
    expect(store.ledger.chargeRun('local', 3)).toBe(false)
    store.close()
    store = createStore(join(dir, 'sitecall.db'))
    expect(store.ledger.usage('local', 4)).toMatchObject({
      balance: 0,
      charged: FREE_GRANT_CREDITS,
    })
  })

  it('moves the run charges of a file from before into the count, listed by their runs', () => {
    store.close()
    const before = mkdtempSync(join(tmpdir(), 'sitecall-migrations-'))
    for (const f of readdirSync(defaultMigrationsDir()).filter((f) => f < '012'))
      cpSync(join(defaultMigrationsDir(), f), join(before, f))
    const path = join(dir, 'old.db')
    const old = openDatabase(path, before)
    old
      .prepare(
        `INSERT INTO runs (id, tenant, tool_id, status, state_revision, inputs, input_hash,
           billed, created_at, updated_at, finished_at)
         VALUES ('lrun_old', 'local', 'tool_x', 'succeeded', 2, '{}', 'h', 0, 5, 6, 6)`,
      )
      .run()
    const ledger = old.prepare(
      'INSERT INTO ledger (tenant, kind, amount, ref, reason, at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    ledger.run('local', 'grant', FREE_GRANT_CREDITS, 'grant:free', 'one-time free grant', 1)
    ledger.run('local', 'charge', -1, 'run:lrun_old', 'site tool call', 6)
    ledger.run('local', 'charge', -1, 'execute:op-1', 'tool execution', 7)
    old.close()
    rmSync(before, { recursive: true, force: true })
    store = createStore(path)
    expect(store.ledger.usage('local', 8)).toMatchObject({
      balance: FREE_GRANT_CREDITS - 2,
      charged: 2,
    })
    expect(store.ledger.entries('local', 10).map((e) => [e.ref, e.at])).toEqual([
      ['execute:op-1', 7],
      ['run:lrun_old', 6],
      ['grant:free', 1],
    ])
  })
})
