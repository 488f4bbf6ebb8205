/**
 * A team server's accounts (issue 27 A) over HTTP: two real `sitecall server` nodes on one
 * PostgreSQL database. Registration and login (a token from one node works on the other; login
 * attempts are limited across nodes), workspaces with roles (a member cannot manage members, an
 * admin cannot remove an owner, the last owner cannot leave, a non-member gets 403 `forbidden`),
 * invitations (single use, raced on two nodes: one member, one `request_closed`), and org keys
 * (end users get a workspace of their own; a non-org key with `X-Service-End-User` is 403; a key
 * revoked on one node is refused on the other at once).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPgStore, type PgStore } from '../../../src/main/store/postgres/pgStore'
import { startHarness } from '../../fixtures/harness/harness'
import { send, type ErrorAnswerBody } from '../../fixtures/harness/http'
import { pgUnavailable, startPgCluster, type PgCluster } from './pgCluster'

const CLI = fileURLToPath(new URL('../../../bin/sitecall.mjs', import.meta.url))
const skip = pgUnavailable()
const PASSWORD = 'correct horse battery'

interface Node {
  id: string
  base: string
  child: ChildProcess
  home: string
}

async function startNode(url: string, id: string): Promise<Node> {
  const home = mkdtempSync(join(tmpdir(), `sitecall-acct-${id}-`))
  const child = spawn(process.execPath, [CLI, 'server', '--port', '0', '--node-id', id], {
    env: {
      ...process.env,
      SITECALL_DATABASE_URL: url,
      SITECALL_HOME: home,
      SITECALL_KEYCHAIN: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
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

interface Registered {
  account: { id: string; name: string }
  workspace: { id: string; name: string; role: string }
  token: string
  expiresAt: number
}

const code = (answer: { body: unknown }) => (answer.body as ErrorAnswerBody).error?.code

describe.skipIf(skip !== null)(`team server accounts${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PgCluster
  let store: PgStore
  let a: Node
  let b: Node
  let ann: Registered
  let bob: Registered
  let carol: Registered

  const register = async (node: Node, name: string): Promise<Registered> => {
    const answer = await send<Registered>(node.base, 'POST', '/v1/auth/register', {
      json: { name, password: PASSWORD },
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    return answer.body
  }

  beforeAll(async () => {
    cluster = await startPgCluster()
    const url = await cluster.createDatabase('accounts')
    store = createPgStore(url)
    ;[a, b] = await Promise.all([startNode(url, 'acct_a'), startNode(url, 'acct_b')])
    ;[ann, bob, carol] = await Promise.all([
      register(a, 'Ann@Example.org'),
      register(b, 'bob@example.org'),
      register(a, 'carol@example.org'),
    ])
  }, 180_000)

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map(stopNode))
    store?.close()
    await cluster?.close()
  })

  it('registers once per name and logs in on either node with a one-hour token', async () => {
    expect(ann.account.name).toBe('ann@example.org')
    expect(ann.workspace.role).toBe('owner')
    expect(ann.token).toMatch(/^svc_owner_/)
    expect(ann.expiresAt - Date.now()).toBeGreaterThan(59 * 60_000)
    expect(ann.expiresAt - Date.now()).toBeLessThanOrEqual(60 * 60_000)
    const taken = await send(b.base, 'POST', '/v1/auth/register', {
      json: { name: 'ann@example.org', password: PASSWORD },
    })
    expect([taken.status, code(taken)]).toEqual([409, 'conflict'])
    const short = await send(a.base, 'POST', '/v1/auth/register', {
      json: { name: 'x@example.org', password: 'short' },
    })
    expect([short.status, code(short)]).toEqual([400, 'invalid_input'])
    const login = await send<Registered>(b.base, 'POST', '/v1/auth/login', {
      json: { name: 'ANN@example.org', password: PASSWORD },
    })
    expect(login.status).toBe(200)
    expect(login.body.account.id).toBe(ann.account.id)
    // A token from one node works on the other; the password is stored only as a scrypt hash.
    const mine = await send<{ workspaces: Array<{ id: string; role: string }> }>(
      a.base,
      'GET',
      '/v1/workspaces',
      { key: login.body.token },
    )
    expect(mine.body.workspaces).toEqual([
      expect.objectContaining({ id: ann.workspace.id, role: 'owner' }),
    ])
    const stored = store.pg.one<{ password_hash: string }>(
      'SELECT password_hash FROM accounts WHERE id = $1',
      [ann.account.id],
    )
    expect(stored?.password_hash).toMatch(/^scrypt\$65536\$8\$1\$/)
    const wrong = await send(a.base, 'POST', '/v1/auth/login', {
      json: { name: 'ann@example.org', password: 'not the password' },
    })
    expect([wrong.status, code(wrong)]).toEqual([401, 'unauthorized'])
    const none = await send(a.base, 'GET', '/v1/workspaces', { key: 'svc_owner_unknown' })
    expect([none.status, code(none)]).toEqual([401, 'unauthorized'])
    // Logged out on one node: the token is refused on the other.
    const out = await send(a.base, 'POST', '/v1/auth/logout', { key: login.body.token })
    expect([out.status, out.body]).toEqual([200, { loggedOut: true }])
    const gone = await send(b.base, 'GET', '/v1/workspaces', { key: login.body.token })
    expect([gone.status, code(gone)]).toEqual([401, 'unauthorized'])
  })

  it('limits login attempts per name across nodes: 10 in 15 minutes, then 429', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        send((i % 2 ? a : b).base, 'POST', '/v1/auth/login', {
          json: { name: 'carol@example.org', password: `guess ${i}` },
        }),
      ),
    )
    const statuses = attempts.map((r) => r.status).sort()
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429])
    const limited = attempts.find((r) => r.status === 429)!
    expect(code(limited)).toBe('rate_limited')
    expect(Number(limited.headers.get('retry-after'))).toBe(900)
    // The right password is refused too until the window passes (the limit is per name).
    const right = await send(a.base, 'POST', '/v1/auth/login', {
      json: { name: 'carol@example.org', password: PASSWORD },
    })
    expect(right.status).toBe(429)
  })

  it('manages members by role: member cannot, admin cannot remove the owner, the last owner stays', async () => {
    const ws = await send<{ id: string; role: string }>(a.base, 'POST', '/v1/workspaces', {
      key: ann.token,
      json: { name: 'Team' },
    })
    expect([ws.status, ws.body.role]).toEqual([201, 'owner'])
    const id = ws.body.id
    const path = `/v1/workspaces/${id}/members`
    // Not a member yet: 403 on the workspace's routes and with X-Service-Workspace.
    const outsider = await send(b.base, 'GET', path, { key: bob.token })
    expect([outsider.status, code(outsider)]).toEqual([403, 'forbidden'])
    const usage = await send(b.base, 'GET', '/v1/usage', {
      key: bob.token,
      headers: { 'x-service-workspace': id },
    })
    expect([usage.status, code(usage)]).toEqual([403, 'forbidden'])
    const addBob = await send(a.base, 'POST', path, {
      key: ann.token,
      json: { name: 'bob@example.org' },
    })
    expect([addBob.status, (addBob.body as { role: string }).role]).toEqual([201, 'member'])
    const again = await send(a.base, 'POST', path, {
      key: ann.token,
      json: { name: 'bob@example.org' },
    })
    expect([again.status, code(again)]).toEqual([409, 'conflict'])
    // Now bob works in it: the workspace's usage and catalog answer.
    const bobUsage = await send(b.base, 'GET', '/v1/usage', {
      key: bob.token,
      headers: { 'x-service-workspace': id },
    })
    expect(bobUsage.status).toBe(200)
    const bobAdds = await send(b.base, 'POST', path, {
      key: bob.token,
      json: { name: 'carol@example.org' },
    })
    expect([bobAdds.status, code(bobAdds)]).toEqual([403, 'forbidden'])
    const bobKeys = await send(b.base, 'POST', '/v1/keys', {
      key: bob.token,
      headers: { 'x-service-workspace': id },
      json: { label: 'mine' },
    })
    expect([bobKeys.status, code(bobKeys)]).toEqual([403, 'forbidden'])
    await send(a.base, 'POST', path, {
      key: ann.token,
      json: { name: 'carol@example.org', role: 'admin' },
    })
    const carolRemovesAnn = await send(b.base, 'DELETE', `${path}/${ann.account.id}`, {
      key: carol.token,
    })
    expect([carolRemovesAnn.status, code(carolRemovesAnn)]).toEqual([403, 'forbidden'])
    const carolMakesOwner = await send(b.base, 'PATCH', `${path}/${bob.account.id}`, {
      key: carol.token,
      json: { role: 'owner' },
    })
    expect([carolMakesOwner.status, code(carolMakesOwner)]).toEqual([403, 'forbidden'])
    const annLeaves = await send(a.base, 'DELETE', `${path}/${ann.account.id}`, { key: ann.token })
    expect([annLeaves.status, code(annLeaves)]).toEqual([409, 'conflict'])
    const annStepsDown = await send(a.base, 'PATCH', `${path}/${ann.account.id}`, {
      key: ann.token,
      json: { role: 'member' },
    })
    expect([annStepsDown.status, code(annStepsDown)]).toEqual([409, 'conflict'])
    // Carol (admin) removes bob (member); bob may leave by himself too, but is gone already.
    const removed = await send(b.base, 'DELETE', `${path}/${bob.account.id}`, { key: carol.token })
    expect(removed.status).toBe(200)
    const members = await send<{ members: Array<{ name: string; role: string }> }>(
      b.base,
      'GET',
      path,
      {
        key: carol.token,
      },
    )
    expect(members.body.members.map((m) => [m.name, m.role])).toEqual([
      ['ann@example.org', 'owner'],
      ['carol@example.org', 'admin'],
    ])
  })

  it('keeps one owner when the two owners leave at once on two nodes', async () => {
    const ws = await send<{ id: string }>(a.base, 'POST', '/v1/workspaces', {
      key: ann.token,
      json: { name: 'Race' },
    })
    const path = `/v1/workspaces/${ws.body.id}/members`
    const added = await send(a.base, 'POST', path, {
      key: ann.token,
      json: { name: 'bob@example.org', role: 'owner' },
    })
    expect(added.status).toBe(201)
    const left = await Promise.all([
      send(a.base, 'DELETE', `${path}/${ann.account.id}`, { key: ann.token }),
      send(b.base, 'DELETE', `${path}/${bob.account.id}`, { key: bob.token }),
    ])
    expect(left.map((r) => r.status).sort()).toEqual([200, 409])
    const owners = store.accounts.members(ws.body.id).filter((m) => m.role === 'owner')
    expect(owners).toHaveLength(1)
  })

  it('accepts an invitation once: raced on two nodes, one member and one request_closed', async () => {
    const invited = await send<{ token: string; expiresAt: number; role: string }>(
      a.base,
      'POST',
      `/v1/workspaces/${ann.workspace.id}/invitations`,
      { key: ann.token, json: { name: 'bob@example.org', role: 'admin' } },
    )
    expect(invited.status).toBe(201)
    expect(invited.body.token).toMatch(/^svc_invite_/)
    const days = (invited.body.expiresAt - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(6.99)
    expect(days).toBeLessThanOrEqual(7)
    // Stored hashed: the token is nowhere in the table.
    const rows = store.pg.query('SELECT * FROM invitations').rows
    expect(JSON.stringify(rows)).not.toContain(invited.body.token)
    // Carol, not invited, may not take it; bob takes it from both nodes at once.
    const carolTakes = await send(a.base, 'POST', '/v1/invitations/accept', {
      key: carol.token,
      json: { token: invited.body.token },
    })
    expect([carolTakes.status, code(carolTakes)]).toEqual([403, 'forbidden'])
    const raced = await Promise.all(
      [a, b].map((node) =>
        send(node.base, 'POST', '/v1/invitations/accept', {
          key: bob.token,
          json: { token: invited.body.token },
        }),
      ),
    )
    expect(raced.map((r) => r.status).sort()).toEqual([200, 409])
    expect(code(raced.find((r) => r.status === 409)!)).toBe('request_closed')
    expect(raced.find((r) => r.status === 200)!.body).toEqual({
      workspace: { id: ann.workspace.id, name: 'ann@example.org', role: 'admin' },
    })
    const count = store.pg.one<{ n: string }>(
      'SELECT COUNT(*) AS n FROM workspace_members WHERE workspace_id = $1 AND account_id = $2',
      [ann.workspace.id, bob.account.id],
    )
    expect(Number(count?.n)).toBe(1)
    const unknown = await send(a.base, 'POST', '/v1/invitations/accept', {
      key: bob.token,
      json: { token: 'svc_invite_nothing' },
    })
    expect([unknown.status, code(unknown)]).toEqual([404, 'not_found'])
    // A member may not invite.
    const carolInvites = await send(
      a.base,
      'POST',
      `/v1/workspaces/${carol.workspace.id}/invitations`,
      {
        key: bob.token,
        json: { name: 'x@example.org' },
      },
    )
    expect([carolInvites.status, code(carolInvites)]).toEqual([403, 'forbidden'])
  })

  it('lets an org key act for end users in workspaces of their own; a revoke holds on every node', async () => {
    const headers = { 'x-service-workspace': ann.workspace.id }
    const org = await send<{ key: string; id: string; kind: string }>(a.base, 'POST', '/v1/keys', {
      key: ann.token,
      headers,
      json: { label: 'agents', kind: 'org' },
    })
    expect([org.status, org.body.kind]).toEqual([201, 'org'])
    const personal = await send<{ key: string }>(a.base, 'POST', '/v1/keys', {
      key: ann.token,
      headers,
      json: { label: 'me' },
    })
    const refused = await send(b.base, 'GET', '/v1/usage', {
      key: personal.body.key,
      headers: { 'x-service-end-user': 'user-1' },
    })
    expect([refused.status, code(refused)]).toEqual([403, 'forbidden'])
    for (const node of [a, b]) {
      const usage = await send<{ balance: number }>(node.base, 'GET', '/v1/usage', {
        key: org.body.key,
        headers: { 'x-service-end-user': 'user-1' },
      })
      expect(usage.status, node.id).toBe(200)
    }
    const workspace = store.accounts.getWorkspace(`${ann.workspace.id}::user-1`)
    expect(workspace).toMatchObject({ kind: 'end_user', parent: ann.workspace.id, name: 'user-1' })
    // The key's own workspace's usage reads the ledger of that workspace.
    const own = await send<{ balance: number }>(b.base, 'GET', '/v1/usage', { key: org.body.key })
    expect(own.body).toEqual(store.ledger.usage(ann.workspace.id, Date.now()))
    // Revoked on node A: node B refuses the very next request.
    const revoke = await send(a.base, 'DELETE', `/v1/keys/${org.body.id}`, {
      key: ann.token,
      headers,
    })
    expect(revoke.status).toBe(200)
    const after = await send(b.base, 'GET', '/v1/usage', {
      key: org.body.key,
      headers: { 'x-service-end-user': 'user-1' },
    })
    expect([after.status, code(after)]).toEqual([403, 'revoked'])
  })
})

describe('the desktop service keeps its single local owner', () => {
  it('has no account routes and takes no account owner token', async () => {
    const h = await startHarness()
    try {
      const register = await send(h.base, 'POST', '/v1/auth/register', {
        json: { name: 'ann@example.org', password: PASSWORD },
      })
      expect([register.status, code(register)]).toEqual([404, 'not_found'])
      const usage = await send(h.base, 'GET', '/v1/usage', { key: 'svc_owner_anything' })
      expect([usage.status, code(usage)]).toEqual([401, 'unauthorized'])
      // Its owner still manages keys, as before.
      const keys = await send(h.base, 'GET', '/v1/keys', { key: h.core.ownerToken })
      expect(keys.status).toBe(200)
    } finally {
      await h.close()
    }
  })
})
