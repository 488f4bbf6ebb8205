/**
 * `sitecall server` (issue 27 A): two real nodes (`bin/sitecall.mjs server` processes) on one
 * PostgreSQL database, in front of a real fixture site. What several nodes must get right
 * together: an Idempotency-Key raced on both nodes sends one request to the site and charges
 * once; a key's rate limit counts its requests on every node; an owner token issued by one node
 * works on the other, and a start link's code works once across them.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { setTimeout as delay } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import { createPgOwnerTokens } from '../../../src/main/serverAccess'
import { createPgRunRepository } from '../../../src/main/store/postgres/pgRunRepository'
import { createPgStore, type PgStore } from '../../../src/main/store/postgres/pgStore'
import type { NewRun } from '../../../src/main/store/runRepository'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { gate } from '../../fixtures/harness/harness'
import {
  authorizeQuery,
  consent,
  pkcePair,
  REDIRECT_URI,
  registerClient,
  token,
} from '../api/oauth/oauthHarness'
import { callTool, searchRequests, send } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'
import { startDirectorySite, type DirectorySite } from '../../fixtures/sites/directory'
import { pgUnavailable, startPgCluster, type PgCluster } from './pgCluster'

const CLI = fileURLToPath(new URL('../../../bin/sitecall.mjs', import.meta.url))
const skip = pgUnavailable()
/** A burst no test reaches but the rate-limit one, and a refill too slow to matter (1 a minute). */
const BURST = 40
/** Nodes silent this long are gone (heartbeats every fifth of it). */
const NODE_TIMEOUT_MS = 1_000

interface Node {
  id: string
  base: string
  child: ChildProcess
  home: string
}

async function startNode(url: string, id: string): Promise<Node> {
  const home = mkdtempSync(join(tmpdir(), `sitecall-node-${id}-`))
  const child = spawn(
    process.execPath,
    [
      ...[CLI, 'server', '--port', '0', '--node-id', id, '--rate-limit', `1/${BURST}`],
      ...['--node-timeout-ms', String(NODE_TIMEOUT_MS)],
    ],
    {
      env: {
        ...process.env,
        SITECALL_DATABASE_URL: url,
        SITECALL_HOME: home,
        SITECALL_KEYCHAIN: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let err = ''
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const base = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      const match = / listening at (http:\S+)/.exec(line)
      if (match) resolve(match[1]!)
    })
    child.once('exit', (code) => reject(new Error(`node ${id} exited (${code}): ${err}`)))
  })
  return { id, base, child, home }
}

async function stopNode(node: Node): Promise<void> {
  if (node.child.exitCode === null && node.child.signalCode === null) {
    const exited = new Promise((resolve) => node.child.once('exit', resolve))
    node.child.kill('SIGTERM')
    await exited
  }
  rmSync(node.home, { recursive: true, force: true })
}

describe.skipIf(skip !== null)(`sitecall server${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PgCluster
  let store: PgStore
  let seedHome: string
  let site: DirectorySite
  let hook: (() => Promise<void>) | null = null
  let tool: ToolSpec
  let key: string
  let nodes: Node[] = []

  beforeAll(async () => {
    cluster = await startPgCluster()
    const url = await cluster.createDatabase('team')
    site = await startDirectorySite({ onApiRequest: () => hook?.() })
    // The workspace's tool and key, written as another node would: through a core on the
    // same database (it migrates it first).
    store = createPgStore(url)
    seedHome = mkdtempSync(join(tmpdir(), 'sitecall-seed-'))
    const seed = createCore({
      store,
      home: seedHome,
      rendererDir: null,
      keychain: null,
      serverNode: true,
    })
    ;({ tool } = await makeSearchTool(seed as unknown as Core, site))
    ;({ key } = store.keys.create({ id: 'key_team', tenant: LOCAL_TENANT, label: 'team' }, 1))
    nodes = await Promise.all(['node_a', 'node_b'].map((id) => startNode(url, id)))
  }, 180_000)

  afterAll(async () => {
    await Promise.all(nodes.map(stopNode))
    await site?.close()
    store?.close()
    await cluster?.close()
    if (seedHome) rmSync(seedHome, { recursive: true, force: true })
  })

  it('answers on both nodes from the one database', async () => {
    for (const node of nodes) {
      const usage = await send<{ balance: number }>(node.base, 'GET', '/v1/usage', { key })
      expect(usage.status, node.id).toBe(200)
    }
  })

  it('sends one request and charges once for one Idempotency-Key raced on two nodes', async () => {
    const sentBefore = searchRequests(site).length
    const chargedBefore = store.ledger.usage(LOCAL_TENANT, Date.now()).charged
    const held = gate()
    hook = () => held.promise
    const calls = nodes.flatMap((node) =>
      Array.from({ length: 6 }, () =>
        callTool<Run>(node.base, key, tool, { query: 'writing' }, { 'idempotency-key': 'raced' }),
      ),
    )
    while (searchRequests(site).length === sentBefore) await delay(20)
    await delay(300)
    held.open()
    const answers = await Promise.all(calls)
    hook = null
    // The node that runs it answers its callers with the result (200); a caller joining from
    // the other node gets the run as it stands (202 while it works) and polls it.
    for (const answer of answers)
      expect([200, 202], JSON.stringify(answer.body)).toContain(answer.status)
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1)
    const ids = new Set(answers.map((a) => a.body.runId))
    expect(ids.size).toBe(1)
    const runId = [...ids][0]!
    // Either node reads the ended run.
    for (const node of nodes) {
      let run: Run | undefined
      for (let i = 0; i < 200; i++) {
        run = (await send<Run>(node.base, 'GET', `/api/v1/runs/${runId}`, { key })).body
        if (run.status !== 'working' && run.status !== 'accepted') break
        await delay(50)
      }
      expect(run?.status, node.id).toBe('succeeded')
    }
    expect(searchRequests(site).length - sentBefore).toBe(1)
    expect(store.runs.list({ toolId: tool.id }).filter((r) => r.runId === runId)).toHaveLength(1)
    expect(store.ledger.usage(LOCAL_TENANT, Date.now()).charged - chargedBefore).toBe(1)
  })

  it("counts a key's requests on every node against one rate limit", async () => {
    const { key: other } = store.keys.create(
      { id: 'key_limited', tenant: LOCAL_TENANT, label: 'limited' },
      1,
    )
    const answers = await Promise.all(
      Array.from({ length: BURST + 20 }, (_, i) =>
        send(nodes[i % 2]!.base, 'GET', '/v1/usage', { key: other }),
      ),
    )
    const ok = answers.filter((a) => a.status === 200).length
    const limited = answers.filter((a) => a.status === 429)
    // One bucket of BURST for both nodes (each node on its own would let 2 x BURST through);
    // the refill is one a minute.
    expect(ok).toBeGreaterThanOrEqual(BURST)
    expect(ok).toBeLessThanOrEqual(BURST + 1)
    expect(limited.length).toBe(answers.length - ok)
    expect(limited[0]?.headers.get('retry-after')).toMatch(/^\d+$/)
  })

  it('accepts an owner token on the node that did not issue it; a start code works once', async () => {
    const tokens = createPgOwnerTokens(store.pg, { clock: Date.now })
    const code = tokens.issueCode()
    const issued = tokens.issue()
    for (const node of nodes) {
      const answer = await send(node.base, 'GET', '/v1/usage', { key: issued.token })
      expect(answer.status, node.id).toBe(200)
    }
    expect(tokens.redeem(code).token).toBeTruthy()
    expect(() => tokens.redeem(code)).toThrow(/already used/)
  })

  it('takes an authorization code and a refresh token once when both nodes race to redeem them', async () => {
    const owner = createPgOwnerTokens(store.pg, { clock: Date.now }).issue().token
    const [a, b] = nodes as [Node, Node]
    // Registered and consented on one node; redeemed on both at once.
    const clientId = await registerClient(a.base)
    const codeFlow = async () => {
      const { verifier, challenge } = pkcePair()
      const back = await consent(
        { base: a.base, core: { ownerToken: owner } } as never,
        authorizeQuery(clientId, challenge),
      )
      return {
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: REDIRECT_URI,
        client_id: clientId,
        code_verifier: verifier,
      }
    }
    const raced = await codeFlow()
    const codeAnswers = await Promise.all([a, b].map((n) => token(n.base, raced)))
    expect(codeAnswers.map((x) => x.status).sort()).toEqual([200, 400])
    // (A code redeemed twice also revokes what it gave, RFC 6749 §4.1.2: a fresh grant for the
    // refresh race.)
    const granted = await token(b.base, await codeFlow())
    expect(granted.status).toBe(200)
    const refresh = {
      grant_type: 'refresh_token',
      refresh_token: granted.body.refresh_token,
      client_id: clientId,
    }
    const refreshAnswers = await Promise.all([a, b].map((n) => token(n.base, refresh)))
    expect(refreshAnswers.map((x) => x.status).sort()).toEqual([200, 400])
  })

  it('answers 503 unavailable while PostgreSQL is down and serves again once it is back, without a restart', async () => {
    await cluster.stop()
    try {
      for (const node of nodes) {
        const down = await send<{ error: { code: string } }>(node.base, 'GET', '/v1/usage', { key })
        expect(down.status, node.id).toBe(503)
        expect(down.body.error.code).toBe('unavailable')
        expect(down.headers.get('retry-after')).toMatch(/^\d+$/)
      }
    } finally {
      await cluster.start()
    }
    for (const node of nodes) {
      const back = await send(node.base, 'GET', '/v1/usage', { key })
      expect(back.status, node.id).toBe(200)
    }
    // The test's own connection reconnects the same way.
    expect(store.keys.list(LOCAL_TENANT).length).toBeGreaterThan(0)
  })

  // Last: it kills node B.
  it('takes over the runs of a node killed mid-run: a read runs again, a write sent ends outcome_unknown, one not sent fails worker_lost', async () => {
    const [a, b] = nodes as [Node, Node]
    // Writes a node left in flight when it died (it never comes back).
    const ghost = createPgRunRepository(store.pg, 'node_ghost')
    const write = (runId: string, status: NewRun['status']): NewRun => ({
      runId,
      tenant: LOCAL_TENANT,
      toolId: 'tool_ghost',
      capabilityId: null,
      via: 'http',
      inputs: {},
      inputHash: 'h',
      idempotencyKey: null,
      deadlineMs: null,
      status,
      mutating: true,
    })
    ghost.create(write('lrun_ghost_sent', 'working'), Date.now())
    ghost.create(write('lrun_ghost_unsent', 'accepted'), Date.now())
    // A read in flight on node B, held at the site while B is killed.
    const sentBefore = searchRequests(site).length
    const held = gate()
    hook = () => held.promise
    const lost = callTool<Run>(b.base, key, tool, { query: 'killed' }).catch(() => null)
    while (searchRequests(site).length === sentBefore) await delay(20)
    const inFlight = store.runs.withStatus(['working']).find((r) => r.toolId === tool.id)
    expect(inFlight).toBeDefined()
    const exited = new Promise((resolve) => b.child.once('exit', resolve))
    b.child.kill('SIGKILL')
    await exited
    hook = null
    held.open()
    await lost
    const final = ['succeeded', 'failed', 'outcome_unknown']
    const ended = async (runId: string) => {
      for (let i = 0; i < 600; i++) {
        const record = store.runs.get(runId)
        if (record && final.includes(record.status)) return record
        await delay(100)
      }
      return store.runs.get(runId)
    }
    expect(await ended(inFlight!.runId)).toMatchObject({ status: 'succeeded' })
    // The read was sent again by node A: twice in all, which a read may be.
    expect(searchRequests(site).length - sentBefore).toBe(2)
    expect(await ended('lrun_ghost_sent')).toMatchObject({
      status: 'outcome_unknown',
      error: { code: 'worker_lost' },
    })
    expect(await ended('lrun_ghost_unsent')).toMatchObject({
      status: 'failed',
      error: { code: 'worker_lost' },
    })
    const owners = store.pg.query<{ node_id: string }>(
      'SELECT DISTINCT node_id FROM runs WHERE id = ANY($1::text[])',
      [[inFlight!.runId, 'lrun_ghost_sent', 'lrun_ghost_unsent']],
    ).rows
    expect(owners.map((o) => o.node_id)).toEqual([a.id])
  }, 120_000)
})
