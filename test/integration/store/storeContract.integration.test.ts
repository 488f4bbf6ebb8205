/**
 * The store contract (issue 27 A, docs/architecture.md "one store interface, two implementations"): one
 * suite, run against the embedded SQLite file and against PostgreSQL 15 (a private cluster,
 * `pgCluster.ts`). What the core relies on — idempotency, charging once, codes used once,
 * workspaces apart, transactions whole — must hold alike on both.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FREE_GRANT_CREDITS } from '../../../src/main/store/ledgerRepository'
import { createPgStore } from '../../../src/main/store/postgres/pgStore'
import type { NewRun } from '../../../src/main/store/runRepository'
import { createStore, type Store } from '../../../src/main/store/store'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { pgUnavailable, startPgCluster, type PgCluster } from './pgCluster'

interface Opened {
  store: Store
  close(): void
}

interface Implementation {
  name: string
  /** Why this implementation cannot run here, or null. */
  skip: string | null
  setup(): Promise<void>
  /** A fresh, empty store. */
  open(): Promise<Opened>
  teardown(): Promise<void>
}

const sqlite: Implementation = {
  name: 'SQLite',
  skip: null,
  setup: async () => undefined,
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'sitecall-contract-'))
    const store = createStore(join(dir, 'sitecall.db'))
    return {
      store,
      close() {
        store.close()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  },
  teardown: async () => undefined,
}

let cluster: PgCluster | null = null
let databases = 0
const postgres: Implementation = {
  name: 'PostgreSQL',
  skip: pgUnavailable(),
  async setup() {
    cluster = await startPgCluster()
  },
  async open() {
    const url = await cluster!.createDatabase(`contract_${++databases}`)
    const store = createPgStore(url)
    return { store, close: () => store.close() }
  },
  async teardown() {
    await cluster?.close()
  },
}

const tool = (id: string, name = 'x__post_search', status = 'verified'): ToolSpec =>
  ({
    id,
    siteHost: 'x.example',
    name,
    status,
    capabilityId: `x.${name}`,
    createdAt: 1,
    updatedAt: 1,
  }) as unknown as ToolSpec

const trace = (id: string): Trace => ({
  id,
  intent: 'search',
  startUrl: 'https://x.example/',
  createdAt: 1,
  storageState: null,
  actions: [
    {
      seq: 1,
      kind: 'navigate',
      at: 0.5,
      pageUrl: 'https://x.example/',
      selector: null,
      role: null,
      name: null,
      value: 'https://x.example/',
    },
  ],
  exchanges: [1, 2].map((seq) => ({
    id: `exc_${seq}`,
    seq,
    method: seq === 1 ? 'GET' : 'POST',
    url: `https://x.example/api?q=${seq}`,
    requestHeaders: { accept: 'application/json' },
    requestBody: seq === 2 ? { encoding: 'utf8' as const, text: '{"q":"ü"}' } : null,
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    // Both answers carry the same body: it is stored once and read back for each.
    responseBody: { encoding: 'utf8' as const, text: '{"ok":true}' },
    resourceType: 'fetch',
    startedAt: 1.5 * seq,
    durationMs: 2.25,
    pageUrl: 'https://x.example/',
  })),
})

const run = (runId: string, more: Partial<NewRun> = {}): NewRun => ({
  runId,
  tenant: 'local',
  toolId: 't1',
  capabilityId: null,
  via: 'http',
  inputs: { q: 1 },
  inputHash: 'h',
  idempotencyKey: null,
  deadlineMs: null,
  status: 'accepted',
  ...more,
})

for (const impl of [sqlite, postgres]) {
  const title = impl.skip
    ? `store contract on ${impl.name} (skipped: ${impl.skip})`
    : `store contract on ${impl.name}`
  describe.skipIf(impl.skip !== null)(title, () => {
    let opened: Opened
    let store: Store
    beforeAll(() => impl.setup(), 120_000)
    afterAll(() => impl.teardown())
    beforeEach(async () => {
      opened = await impl.open()
      store = opened.store
    })
    afterEach(() => opened.close())

    it('says which implementation it is', () => {
      expect(store.kind).toBe(impl === sqlite ? 'sqlite' : 'postgres')
    })

    it('round-trips a trace, its actions and bodies, and deletes it', () => {
      store.traces.save(trace('trc_1'))
      expect(store.traces.get('trc_1')).toEqual(trace('trc_1'))
      expect(store.traces.getExchange('trc_1', 'exc_2')?.requestBody).toEqual({
        encoding: 'utf8',
        text: '{"q":"ü"}',
      })
      expect(store.traces.list().map((t) => t.id)).toEqual(['trc_1'])
      expect(store.tracesFor('acme').get('trc_1')).toBeNull()
      expect(store.traces.delete('trc_1')).toBe(true)
      expect(store.traces.get('trc_1')).toBeNull()
    })

    it('keeps tools per workspace, names them uniquely and moves the revision on each write', () => {
      const before = store.tools.revision()
      store.tools.save(tool('t1'))
      const afterSave = store.tools.revision()
      expect(afterSave).not.toBe(before)
      expect(store.tools.get('t1')?.name).toBe('x__post_search')
      expect(store.tools.getByName('x.example', 'x__post_search')?.id).toBe('t1')
      expect(store.tools.uniqueName('x.example', 'x__post_search')).toBe('x__post_search_2')
      // `_` is LIKE's wildcard: a name that only matches through it is not taken.
      expect(store.tools.uniqueName('x.example', 'x_Xpost_search')).toBe('x_Xpost_search')
      expect(store.toolsFor('acme').get('t1')).toBeNull()
      expect(store.toolsFor('acme').list()).toEqual([])
      expect(store.tools.setStatus('t1', 'quarantined', 5)?.status).toBe('quarantined')
      expect(store.tools.list({ status: 'verified' })).toEqual([])
      expect(store.tools.revision()).not.toBe(afterSave)
      expect(store.tools.versions()).toEqual([{ id: 't1', updatedAt: 5, status: 'quarantined' }])
      expect(store.toolsFor('acme').delete('t1')).toBe(false)
      expect(store.tools.delete('t1')).toBe(true)
      expect(store.tools.list()).toEqual([])
    })

    it('joins a run by idempotency key per workspace and counts transitions', () => {
      const first = store.runs.create(run('lrun_1', { idempotencyKey: 'k' }), 10)
      const again = store.runs.create(run('lrun_2', { idempotencyKey: 'k' }), 11)
      const elsewhere = store.runs.create(
        run('lrun_3', { idempotencyKey: 'k', tenant: 'acme' }),
        12,
      )
      expect(first.created).toBe(true)
      expect(again).toMatchObject({ created: false, run: { runId: 'lrun_1' } })
      expect(elsewhere.created).toBe(true)
      expect(store.runs.findByKey('local', 'k')?.runId).toBe('lrun_1')
      const done = store.runs.transition(
        'lrun_1',
        {
          status: 'succeeded',
          result: { ok: 1, text: 'é'.repeat(3) },
          billed: true,
          finished: true,
        },
        13,
      )
      expect(done).toMatchObject({ status: 'succeeded', stateRevision: 2, billed: true })
      expect(store.runs.get('lrun_1')).toMatchObject({
        status: 'succeeded',
        result: { ok: 1, text: 'ééé' },
        finishedAt: new Date(13).toISOString(),
      })
      expect(store.runs.withStatus(['accepted']).map((r) => r.runId)).toEqual(['lrun_3'])
      expect(store.runs.storedResults().runs).toBe(1)
    })

    it('charges once per reference and never below zero', () => {
      expect(store.ledger.usage('local', 1).balance).toBe(FREE_GRANT_CREDITS)
      expect(store.ledger.charge('local', 'execute:op-1', 1, 'tool execution', 2)).toBe(true)
      expect(store.ledger.charge('local', 'execute:op-1', 1, 'tool execution', 3)).toBe(false)
      expect(store.ledger.charged('local', 'execute:op-1')).toBe(true)
      expect(store.ledger.charge('local', 'big', FREE_GRANT_CREDITS, 'too much', 4)).toBe(false)
      expect(store.ledger.charged('local', 'big')).toBe(false)
      store.ledger.purchase('local', 'pay_1', 5, 5)
      expect(store.ledger.usage('local', 6)).toMatchObject({
        balance: FREE_GRANT_CREDITS - 1 + 5,
        charged: 1,
      })
      expect(store.ledger.entries('local', 10).map((e) => [e.kind, e.ref, e.amount])).toEqual([
        ['purchase', 'pay_1', 5],
        ['charge', 'execute:op-1', -1],
        ['grant', 'grant:free', FREE_GRANT_CREDITS],
      ])
      expect(store.ledger.usage('acme', 7).balance).toBe(FREE_GRANT_CREDITS)
    })

    it('keeps API keys hashed and refuses a revoked one', () => {
      const { key, record } = store.keys.create({ id: 'key_1', tenant: 'local', label: 'x' }, 1)
      expect(key).toMatch(/^svc_live_/)
      expect(store.keys.findByKey(key)).toMatchObject({ id: 'key_1', tenant: 'local' })
      expect(store.keys.list('local')).toMatchObject([record])
      expect(store.keys.revoke('key_1', 2)).toBe(true)
      expect(store.keys.findByKey(key)?.revokedAt).toBeTruthy()
      expect(store.keys.revoke('key_nope', 2)).toBe(false)
    })

    it('keeps one receipt per operation key and completes it', () => {
      const receipt = {
        tenant: 'local',
        opKey: 'op-1',
        operation: 'execute',
        inputHash: 'h',
        status: 'uncertain' as const,
        cost: 1,
        result: { a: 1 },
        createdAt: 1,
        updatedAt: 1,
      }
      expect(store.receipts.put(receipt).created).toBe(true)
      const again = store.receipts.put({ ...receipt, result: { a: 2 } })
      expect(again).toMatchObject({ created: false, receipt: { result: { a: 1 } } })
      expect(
        store.receipts.complete('local', 'op-1', { status: 'completed', result: { a: 3 } }, 2),
      ).toMatchObject({ status: 'completed', result: { a: 3 }, updatedAt: 2 })
      expect(store.receipts.get('acme', 'op-1')).toBeNull()
    })

    it('uses an OAuth code and a refresh token once each', () => {
      store.oauth.createClient({
        id: 'cl_1',
        name: 'Agent',
        redirectUris: ['http://127.0.0.1/cb'],
        createdAt: 1,
      })
      store.oauth.createFamily({
        id: 'fam_1',
        clientId: 'cl_1',
        tenant: 'local',
        scope: 'tools:run',
        createdAt: 1,
      })
      store.oauth.createCode('code-1', {
        familyId: 'fam_1',
        redirectUri: 'http://127.0.0.1/cb',
        codeChallenge: 'c',
        expiresAt: 100,
      })
      expect(store.oauth.findCode('code-1')).toMatchObject({ familyId: 'fam_1', usedAt: null })
      expect(store.oauth.useCode('code-1', 2)).toBe(true)
      expect(store.oauth.useCode('code-1', 3)).toBe(false)
      store.oauth.createToken('rt-1', {
        familyId: 'fam_1',
        kind: 'refresh',
        createdAt: 1,
        expiresAt: 100,
      })
      expect(store.oauth.useToken('rt-1', 2)).toBe(true)
      expect(store.oauth.useToken('rt-1', 3)).toBe(false)
      store.oauth.revokeFamily('fam_1', 4)
      expect(store.oauth.getFamily('fam_1')?.revokedAt).toBe(4)
      expect(store.oauth.countClients()).toBe(1)
    })

    it('keeps scopes, local sites, tool health, logins and secrets per workspace', () => {
      expect(
        store.scopes.put('local', { slug: 's', apps: ['x'], tools: [], createdAt: 1 }, 5),
      ).toBe(true)
      expect(store.scopes.find('local', 's')?.apps).toEqual(['x'])
      expect(store.scopes.find('acme', 's')).toBeNull()
      expect(store.localSites.add('local', '127.0.0.1', 1)).toBe(true)
      expect(store.localSites.add('local', '127.0.0.1', 2)).toBe(false)
      expect(store.localSites.list('acme')).toEqual([])
      store.health.recordFailure('t1', 'drift')
      expect(store.health.recordFailure('t1', 'drift').consecutiveFailures).toBe(2)
      store.health.recordSuccess('t1', { q: 1 })
      expect(store.health.get('t1')).toMatchObject({ consecutiveFailures: 0 })
      const sealed = Buffer.from([0, 1, 2, 255])
      store.logins.save('local', 'x.example', sealed, 1)
      expect(store.logins.get('local', 'x.example')?.sealedState).toEqual(sealed)
      expect(store.logins.get('acme', 'x.example')).toBeNull()
      const put = store.secrets.put('local', 'API_TOKEN', sealed, ['x.example'], 1)
      expect(put.created).toBe(true)
      expect(store.secrets.get('local', 'API_TOKEN')?.envelope).toEqual(sealed)
      expect(store.secrets.count('acme')).toBe(0)
    })

    it('lands a transaction whole or not at all', () => {
      expect(() =>
        store.transaction(() => {
          store.keys.create({ id: 'key_t', tenant: 'local', label: 'x' }, 1)
          store.ledger.charge('local', 'ref-t', 1, 'x', 1)
          throw new Error('abandoned')
        }),
      ).toThrow('abandoned')
      expect(store.keys.list('local')).toEqual([])
      expect(store.ledger.charged('local', 'ref-t')).toBe(false)
      const kept = store.transaction(() => {
        store.ledger.charge('local', 'ref-u', 1, 'x', 1)
        // A nested transaction that fails leaves the outer one's writes.
        expect(() =>
          store.transaction(() => {
            store.ledger.charge('local', 'ref-v', 1, 'x', 1)
            throw new Error('inner')
          }),
        ).toThrow('inner')
        return 'done'
      })
      expect(kept).toBe('done')
      expect(store.ledger.charged('local', 'ref-u')).toBe(true)
      expect(store.ledger.charged('local', 'ref-v')).toBe(false)
    })

    it('keeps results under the retention rule and commits atomicallySoon work', async () => {
      for (const [id, at] of [
        ['lrun_old', 10],
        ['lrun_new', 1_000],
      ] as const) {
        store.runs.create(run(id, { status: 'working' }), at)
        store.runs.transition(
          id,
          { status: 'succeeded', result: { rows: 'x'.repeat(200) }, finished: true },
          at,
        )
      }
      expect(store.runs.storedResults().runs).toBe(2)
      const dropped = store.runs.expireResults({ maxAgeMs: 500, maxBytes: 1024 ** 3 }, 1_100)
      expect(dropped.runs).toBe(1)
      expect(dropped.bytes).toBeGreaterThan(0)
      expect(store.runs.get('lrun_old')).toMatchObject({ status: 'succeeded' })
      expect(store.runs.get('lrun_old')?.result).toBeUndefined()
      expect(store.runs.get('lrun_new')?.result).toEqual({ rows: 'x'.repeat(200) })
      expect(store.runs.list({ toolId: 't1' }).map((r) => r.runId)).toEqual([
        'lrun_new',
        'lrun_old',
      ])
      const kept = await store.runs.atomicallySoon(() => {
        store.ledger.charge('local', 'soon-1', 1, 'x', 2)
        return 'kept'
      })
      expect(kept).toBe('kept')
      await expect(
        store.runs.atomicallySoon(() => {
          store.ledger.charge('local', 'soon-2', 1, 'x', 2)
          throw new Error('undone')
        }),
      ).rejects.toThrow('undone')
      expect(store.ledger.charged('local', 'soon-1')).toBe(true)
      expect(store.ledger.charged('local', 'soon-2')).toBe(false)
    })

    it('keeps index jobs per workspace and fails the active ones of a gone process', () => {
      const job = {
        id: 'idx_1',
        tenant: 'local',
        url: 'https://x.example/',
        site: 'x.example',
        intent: null,
        status: 'queued' as const,
        indexed: 0,
        reason: null,
        message: null,
        traceId: null,
        toolIds: [],
        signInUrl: null,
        createdAt: 10,
        updatedAt: 10,
        finishedAt: null,
      }
      store.indexJobs.create(job)
      store.indexJobs.create({ ...job, id: 'idx_2', createdAt: 20, updatedAt: 20 })
      expect(store.indexJobs.get('acme', 'idx_1')).toBeNull()
      expect(store.indexJobs.update('idx_1', { status: 'running' }, 30)).toMatchObject({
        status: 'running',
        updatedAt: 30,
      })
      expect(store.indexJobs.active('local').map((j) => j.id)).toEqual(['idx_1', 'idx_2'])
      expect(store.indexJobs.countSince('local', 15)).toBe(1)
      expect(store.indexJobs.oldestSince('local', 5)?.id).toBe('idx_1')
      expect(store.indexJobs.failActive('worker_lost', 'gone', 40)).toBe(2)
      expect(store.indexJobs.get('local', 'idx_2')).toMatchObject({
        status: 'failed',
        reason: 'worker_lost',
        finishedAt: 40,
      })
    })

    it('lists, touches and removes logins and secrets; quarantines and lists tool health', () => {
      const sealed = Buffer.from('envelope')
      store.logins.save('local', 'a.example', sealed, 1)
      store.logins.save('local', 'b.example', sealed, 2)
      store.logins.touch('local', 'a.example', 5)
      expect(store.logins.get('local', 'a.example')?.lastUsedAt).toBe(5)
      expect(
        store.logins
          .list('local')
          .map((l) => l.siteHost)
          .sort(),
      ).toEqual(['a.example', 'b.example'])
      expect(store.logins.remove('local', 'a.example')).toBe(true)
      expect(store.logins.remove('local', 'a.example')).toBe(false)
      expect(store.logins.plaintext()).toEqual([])
      store.secrets.put('local', 'A', sealed, null, 1)
      const replaced = store.secrets.put('local', 'A', Buffer.from('other'), ['x.example'], 2)
      expect(replaced.created).toBe(false)
      expect(store.secrets.list('local').map((x) => x.name)).toEqual(['A'])
      expect(store.secrets.records('local')[0]?.envelope).toEqual(Buffer.from('other'))
      expect(store.secrets.remove('local', 'A')).toBe(true)
      expect(store.secrets.count('local')).toBe(0)
      store.health.setQuarantined('t9', 7)
      store.health.markChecked('t9', 8)
      expect(store.health.quarantined().map((h) => h.toolId)).toEqual(['t9'])
      expect(store.health.get('t9')).toMatchObject({ quarantinedAt: 7, checkedAt: 8 })
      const { key } = store.keys.create({ id: 'key_o', tenant: 'acme', label: 'o', kind: 'org' }, 1)
      store.keys.touch('key_o', 9)
      expect(store.keys.findByKey(key)).toMatchObject({ kind: 'org', lastUsedAt: 9 })
      expect(store.keys.list('local')).toEqual([])
    })

    it('seals recorded credentials at rest and reads them back whole', () => {
      // A stand-in for the vault: reversible, and marks what it sealed.
      const sealer = {
        seal: (plain: Buffer) => Buffer.concat([Buffer.from('SEALED:'), plain]),
        open: (envelope: Buffer) =>
          envelope.subarray(0, 7).toString() === 'SEALED:' ? envelope.subarray(7) : null,
      }
      const withLogin = trace('trc_login')
      withLogin.exchanges[0]!.requestHeaders = { cookie: 'sid=secret-1', accept: '*/*' }
      store.traces.useSealer(() => sealer)
      store.traces.save(withLogin)
      expect(store.traces.plaintextCount()).toBe(0)
      expect(store.traces.get('trc_login')?.exchanges[0]?.requestHeaders).toEqual({
        cookie: 'sid=secret-1',
        accept: '*/*',
      })
      // With the vault locked the value reads as a marker, never as the secret.
      store.traces.useSealer(() => null)
      const locked = store.traces.getExchange('trc_login', 'exc_1')?.requestHeaders.cookie
      expect(locked).toMatch(/^sitecall-/)
      expect(locked).not.toContain('secret-1')
      // Saved while locked: a marker is stored in its place, nothing in the clear.
      store.traces.save({ ...withLogin, id: 'trc_locked' })
      expect(store.traces.plaintextCount()).toBe(0)
      expect(store.traces.get('trc_locked')?.exchanges[0]?.requestHeaders.cookie).not.toContain(
        'secret-1',
      )
    })
    it('takes an account name once, keeps sessions until they expire, lists workspaces by role', () => {
      const alice = store.accounts.createAccount(
        { id: 'a1', name: 'alice@x.org', passwordHash: 'h1' },
        10,
      )
      expect(alice).toEqual({ id: 'a1', name: 'alice@x.org', createdAt: 10 })
      expect(
        store.accounts.createAccount({ id: 'a2', name: 'alice@x.org', passwordHash: 'h2' }, 11),
      ).toBeNull()
      expect(store.accounts.findByName('alice@x.org')?.passwordHash).toBe('h1')
      store.accounts.createSession('s1', 'a1', 100, 10)
      expect(store.accounts.session('s1', 99)).toEqual({ accountId: 'a1', expiresAt: 100 })
      expect(store.accounts.session('s1', 100)).toBeNull()
      // An expired session goes with the next one issued.
      store.accounts.createSession('s2', 'a1', 300, 200)
      expect(store.accounts.session('s1', 0)).toBeNull()
      expect(store.accounts.deleteSession('s2')).toBe(true)
      expect(store.accounts.session('s2', 201)).toBeNull()
      expect(store.accounts.deleteSession('s2')).toBe(false)
      store.accounts.createWorkspace({ id: 'ws_a', name: 'A', ownerId: 'a1' }, 20)
      store.accounts.createWorkspace({ id: 'ws_b', name: 'B' }, 21)
      expect(store.accounts.workspacesOf('a1').map((w) => [w.id, w.role])).toEqual([
        ['ws_a', 'owner'],
      ])
      expect(store.accounts.roleIn('ws_b', 'a1')).toBeNull()
      // An org key's end user's workspace is made once.
      expect(
        store.accounts.ensureWorkspace(
          { id: 'ws_a::u1', name: 'u1', kind: 'end_user', parent: 'ws_a' },
          30,
        ),
      ).toBe(true)
      expect(
        store.accounts.ensureWorkspace(
          { id: 'ws_a::u1', name: 'u1', kind: 'end_user', parent: 'ws_a' },
          31,
        ),
      ).toBe(false)
      expect(store.accounts.getWorkspace('ws_a::u1')).toMatchObject({
        kind: 'end_user',
        parent: 'ws_a',
      })
    })

    it('keeps the last owner: it can neither leave nor step down', () => {
      for (const [id, name] of [
        ['o1', 'o1@x.org'],
        ['o2', 'o2@x.org'],
        ['m1', 'm1@x.org'],
      ])
        store.accounts.createAccount({ id: id!, name: name!, passwordHash: 'h' }, 1)
      store.accounts.createWorkspace({ id: 'ws', name: 'W', ownerId: 'o1' }, 1)
      expect(store.accounts.addMember('ws', 'm1', 'member', 2)).toBe(true)
      expect(store.accounts.addMember('ws', 'm1', 'admin', 3)).toBe(false)
      expect(store.accounts.removeMember('ws', 'o1')).toBe('last_owner')
      expect(store.accounts.setRole('ws', 'o1', 'admin')).toBe('last_owner')
      expect(store.accounts.setRole('ws', 'nobody', 'admin')).toBe('not_member')
      expect(store.accounts.addMember('ws', 'o2', 'owner', 4)).toBe(true)
      expect(store.accounts.setRole('ws', 'o1', 'admin')).toBe('changed')
      expect(store.accounts.removeMember('ws', 'o2')).toBe('last_owner')
      expect(store.accounts.removeMember('ws', 'm1')).toBe('removed')
      expect(store.accounts.members('ws').map((m) => [m.name, m.role])).toEqual([
        ['o1@x.org', 'admin'],
        ['o2@x.org', 'owner'],
      ])
    })

    it('accepts an invitation once, for the account it names, within its life', () => {
      store.accounts.createAccount({ id: 'o1', name: 'o1@x.org', passwordHash: 'h' }, 1)
      const bob = store.accounts.createAccount(
        { id: 'b1', name: 'bob@x.org', passwordHash: 'h' },
        1,
      )!
      const eve = store.accounts.createAccount(
        { id: 'e1', name: 'eve@x.org', passwordHash: 'h' },
        1,
      )!
      store.accounts.createWorkspace({ id: 'ws', name: 'W', ownerId: 'o1' }, 1)
      const invite = (id: string, tokenHash: string, expiresAt: number) =>
        store.accounts.createInvitation(
          {
            id,
            workspaceId: 'ws',
            name: 'bob@x.org',
            role: 'admin',
            invitedBy: 'o1',
            expiresAt,
            tokenHash,
          },
          10,
        )
      invite('inv1', 'th1', 1_000)
      invite('inv2', 'th2', 50)
      expect(
        store.accounts
          .invitations('ws')
          .map((i) => i.id)
          .sort(),
      ).toEqual(['inv1', 'inv2'])
      expect(store.accounts.acceptInvitation('nope', bob, 20).kind).toBe('unknown')
      expect(store.accounts.acceptInvitation('th1', eve, 20).kind).toBe('wrong_account')
      expect(store.accounts.acceptInvitation('th2', bob, 50).kind).toBe('expired')
      const accepted = store.accounts.acceptInvitation('th1', bob, 20)
      expect(accepted).toMatchObject({
        kind: 'accepted',
        role: 'admin',
        invitation: { acceptedBy: 'b1' },
      })
      expect(store.accounts.acceptInvitation('th1', bob, 21).kind).toBe('used')
      expect(store.accounts.roleIn('ws', 'b1')).toBe('admin')
      expect(store.accounts.invitations('ws').map((i) => i.id)).toEqual(['inv2'])
    })

    it('counts login attempts per name in a window and forgets them on request', () => {
      const minute = 60_000
      expect(store.accounts.countLoginAttempt('name:a', 1_000, minute)).toBe(1)
      expect(store.accounts.countLoginAttempt('name:a', 2_000, minute)).toBe(2)
      expect(store.accounts.countLoginAttempt('name:b', 2_000, minute)).toBe(1)
      // A window over a minute old starts again.
      expect(store.accounts.countLoginAttempt('name:a', 1_000 + minute, minute)).toBe(1)
      expect(store.accounts.countLoginAttempt('name:a', 2_000 + minute, minute)).toBe(2)
      store.accounts.clearLoginAttempts('name:a')
      expect(store.accounts.countLoginAttempt('name:a', 3_000 + minute, minute)).toBe(1)
    })
    it('gives every tool write the workspace its next sync revision, and a delete a tombstone', () => {
      const sync = store.toolSync
      expect(sync.revision('local')).toBe(0)
      expect(sync.changes('local', 0, 10)).toEqual({
        revision: 0,
        tools: [],
        deleted: [],
        more: false,
      })
      store.tools.save(tool('t1'))
      store.tools.save(tool('t2', 'x__get_item'))
      const r1 = sync.state('local', 't1')!.revision
      const r2 = sync.state('local', 't2')!.revision
      expect(r2).toBeGreaterThan(r1)
      expect(sync.revision('local')).toBe(r2)
      // Any path that writes a tool moves its revision (the engine's quarantine here).
      store.tools.setStatus('t1', 'quarantined', 5)
      const r3 = sync.state('local', 't1')!.revision
      expect(r3).toBeGreaterThan(r2)
      const since = sync.changes('local', r2, 10)
      expect(since.tools.map((t) => [t.tool.id, t.tool.status])).toEqual([['t1', 'quarantined']])
      expect(since.revision).toBe(r3)
      expect(store.tools.delete('t2')).toBe(true)
      const gone = sync.state('local', 't2')!
      expect(gone.tool).toBeNull()
      expect(gone.revision).toBeGreaterThan(r3)
      const all = sync.changes('local', 0, 10)
      expect(all.tools.map((t) => t.tool.id)).toEqual(['t1'])
      expect(all.deleted.map((d) => [d.toolId, d.revision])).toEqual([['t2', gone.revision]])
      // Paged: one change at a time, the next pull starts where the last one ended.
      const first = sync.changes('local', 0, 1)
      expect(first.more).toBe(true)
      expect(first.revision).toBe(r3)
      expect(sync.changes('local', first.revision, 1)).toMatchObject({
        more: false,
        deleted: [{ toolId: 't2' }],
        revision: sync.revision('local'),
      })
      // Saved again, the tool is back and its tombstone gone; other workspaces see nothing.
      store.tools.save(tool('t2', 'x__get_item'))
      expect(sync.state('local', 't2')!.tool?.id).toBe('t2')
      expect(sync.changes('local', 0, 10).deleted).toEqual([])
      expect(sync.changes('acme', 0, 10).tools).toEqual([])
      expect(sync.state('acme', 't1')).toBeNull()
    })

    it('keeps a push answer once per operation key and workspace', () => {
      const sync = store.toolSync
      store.transaction(() => {
        sync.lock('local')
        sync.recordOperation('local', 'k1', { toolId: 't1', status: 200, answer: { n: 1 } }, 1)
        sync.recordOperation('local', 'k1', { toolId: 't1', status: 200, answer: { n: 2 } }, 2)
      })
      expect(sync.operation('local', 'k1')).toEqual({
        toolId: 't1',
        status: 200,
        answer: { n: 1 },
      })
      expect(sync.operation('acme', 'k1')).toBeNull()
    })
  })
}
