import {
  refusedInvitation,
  toAccount,
  toInvitation,
  toWorkspace,
  type AcceptOutcome,
  type Account,
  type AccountRepository,
  type AccountRow,
  type InvitationRow,
  type Member,
  type WorkspaceRow,
} from '../accountRepository'
import type { MemberRole } from '../memberRules'
import type { SyncPg } from './pgSync'

/**
 * Accounts, sessions, workspaces, members and invitations on PostgreSQL (the
 * `AccountRepository` contract). Races between nodes: a name is taken by `ON CONFLICT`; the
 * last-owner rule is checked with the workspace row locked (`FOR UPDATE`), so two owners leaving
 * at once cannot both go; an invitation is accepted by one conditional `UPDATE … RETURNING`,
 * which a concurrent one waits on and then finds spent.
 */
export function createPgAccountRepository(pg: SyncPg): AccountRepository {
  return {
    createAccount({ id, name, passwordHash }, now) {
      const made = pg.query(
        `INSERT INTO accounts (id, name, password_hash, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (name) DO NOTHING`,
        [id, name, passwordHash, now],
      )
      return made.rowCount > 0 ? { id, name, createdAt: now } : null
    },
    findByName(name) {
      const row = pg.one<AccountRow>('SELECT * FROM accounts WHERE name = $1', [name])
      return row ? { ...toAccount(row), passwordHash: row.password_hash } : null
    },
    getAccount(id) {
      const row = pg.one<AccountRow>('SELECT * FROM accounts WHERE id = $1', [id])
      return row ? toAccount(row) : null
    },
    createSession(hash, accountId, expiresAt, now) {
      pg.query('DELETE FROM account_sessions WHERE expires_at <= $1', [now])
      pg.query('INSERT INTO account_sessions (hash, account_id, expires_at) VALUES ($1, $2, $3)', [
        hash,
        accountId,
        expiresAt,
      ])
    },
    deleteSession: (hash) =>
      pg.query('DELETE FROM account_sessions WHERE hash = $1', [hash]).rowCount > 0,
    session(hash, now) {
      const row = pg.one<{ account_id: string; expires_at: number }>(
        'SELECT account_id, expires_at FROM account_sessions WHERE hash = $1 AND expires_at > $2',
        [hash, now],
      )
      return row ? { accountId: row.account_id, expiresAt: Number(row.expires_at) } : null
    },
    createWorkspace({ id, name, kind = 'team', parent = null, ownerId }, now) {
      pg.transaction(() => {
        pg.query(
          'INSERT INTO workspaces (id, name, kind, parent, created_at) VALUES ($1, $2, $3, $4, $5)',
          [id, name, kind, parent, now],
        )
        if (ownerId) addMember(pg, id, ownerId, 'owner', now)
      })
      return { id, name, kind, parent, createdAt: now }
    },
    ensureWorkspace({ id, name, kind, parent = null }, now) {
      return (
        pg.query(
          `INSERT INTO workspaces (id, name, kind, parent, created_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (id) DO NOTHING`,
          [id, name, kind, parent, now],
        ).rowCount > 0
      )
    },
    getWorkspace(id) {
      const row = pg.one<WorkspaceRow>('SELECT * FROM workspaces WHERE id = $1', [id])
      return row ? toWorkspace(row) : null
    },
    workspacesOf(accountId) {
      return pg
        .query<WorkspaceRow & { role: MemberRole }>(
          `SELECT w.*, m.role FROM workspaces w JOIN workspace_members m ON m.workspace_id = w.id
           WHERE m.account_id = $1 ORDER BY w.created_at, w.id`,
          [accountId],
        )
        .rows.map((r) => ({ ...toWorkspace(r), role: r.role }))
    },
    roleIn: (workspaceId, accountId) => roleIn(pg, workspaceId, accountId),
    members: (workspaceId) => membersOf(pg, workspaceId),
    addMember: (workspaceId, accountId, role, now) =>
      addMember(pg, workspaceId, accountId, role, now),
    setRole: (workspaceId, accountId, role) => setRole(pg, workspaceId, accountId, role),
    removeMember: (workspaceId, accountId) => removeMember(pg, workspaceId, accountId),
    createInvitation({ tokenHash, ...input }, now) {
      pg.query(
        `INSERT INTO invitations (id, workspace_id, name, role, token_hash, invited_by, created_at,
           expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          input.id,
          input.workspaceId,
          input.name,
          input.role,
          tokenHash,
          input.invitedBy,
          now,
          input.expiresAt,
        ],
      )
      return { ...input, createdAt: now, acceptedBy: null, acceptedAt: null }
    },
    invitations(workspaceId) {
      return pg
        .query<InvitationRow>(
          `SELECT * FROM invitations WHERE workspace_id = $1 AND accepted_at IS NULL
           ORDER BY created_at DESC`,
          [workspaceId],
        )
        .rows.map(toInvitation)
    },
    acceptInvitation: (tokenHash, account, now) => acceptInvitation(pg, tokenHash, account, now),
    countLoginAttempt: (key, now, windowMs) => countLoginAttempt(pg, key, now, windowMs),
    clearLoginAttempts(key) {
      pg.query('DELETE FROM login_attempts WHERE key = $1', [key])
    },
  }
}

/** The member's role in the workspace, or null when not a member. */
function roleIn(pg: SyncPg, workspaceId: string, accountId: string): MemberRole | null {
  return (
    pg.one<{ role: MemberRole }>(
      'SELECT role FROM workspace_members WHERE workspace_id = $1 AND account_id = $2',
      [workspaceId, accountId],
    )?.role ?? null
  )
}

/** How many owners the workspace has, its row locked until the transaction ends. */
function lockedOwners(pg: SyncPg, workspaceId: string): number {
  pg.query('SELECT id FROM workspaces WHERE id = $1 FOR UPDATE', [workspaceId])
  return Number(
    pg.one<{ n: string }>(
      "SELECT COUNT(*) AS n FROM workspace_members WHERE workspace_id = $1 AND role = 'owner'",
      [workspaceId],
    )!.n,
  )
}

/** `AccountRepository.addMember`: false when the account is a member already. */
function addMember(
  pg: SyncPg,
  workspaceId: string,
  accountId: string,
  role: MemberRole,
  now: number,
): boolean {
  return (
    pg.query(
      `INSERT INTO workspace_members (workspace_id, account_id, role, added_at)
       VALUES ($1, $2, $3, $4) ON CONFLICT (workspace_id, account_id) DO NOTHING`,
      [workspaceId, accountId, role, now],
    ).rowCount > 0
  )
}

/** `AccountRepository.members`: the workspace's members, first added first. */
function membersOf(pg: SyncPg, workspaceId: string): Member[] {
  return pg
    .query<{ account_id: string; name: string; role: MemberRole; added_at: number }>(
      `SELECT m.account_id, a.name, m.role, m.added_at FROM workspace_members m
       JOIN accounts a ON a.id = m.account_id WHERE m.workspace_id = $1
       ORDER BY m.added_at, a.name`,
      [workspaceId],
    )
    .rows.map((r) => ({
      accountId: r.account_id,
      name: r.name,
      role: r.role,
      addedAt: Number(r.added_at),
    }))
}

/** `AccountRepository.setRole`, the workspace row locked so the last owner stays. */
function setRole(
  pg: SyncPg,
  workspaceId: string,
  accountId: string,
  role: MemberRole,
): 'changed' | 'not_member' | 'last_owner' {
  return pg.transaction(() => {
    const owners = lockedOwners(pg, workspaceId)
    const was = roleIn(pg, workspaceId, accountId)
    if (was === null) return 'not_member' as const
    if (was === 'owner' && role !== 'owner' && owners <= 1) return 'last_owner' as const
    pg.query('UPDATE workspace_members SET role = $1 WHERE workspace_id = $2 AND account_id = $3', [
      role,
      workspaceId,
      accountId,
    ])
    return 'changed' as const
  })
}

/** `AccountRepository.removeMember`, the workspace row locked so the last owner stays. */
function removeMember(
  pg: SyncPg,
  workspaceId: string,
  accountId: string,
): 'removed' | 'not_member' | 'last_owner' {
  return pg.transaction(() => {
    const owners = lockedOwners(pg, workspaceId)
    const was = roleIn(pg, workspaceId, accountId)
    if (was === null) return 'not_member' as const
    if (was === 'owner' && owners <= 1) return 'last_owner' as const
    pg.query('DELETE FROM workspace_members WHERE workspace_id = $1 AND account_id = $2', [
      workspaceId,
      accountId,
    ])
    return 'removed' as const
  })
}

/**
 * `AccountRepository.acceptInvitation`: one conditional UPDATE marks it accepted (a concurrent
 * attempt waits on it and finds it spent), then the member is added in the same transaction.
 */
function acceptInvitation(
  pg: SyncPg,
  tokenHash: string,
  account: Account,
  now: number,
): AcceptOutcome {
  return pg.transaction((): AcceptOutcome => {
    const row = pg.one<InvitationRow>(
      `UPDATE invitations SET accepted_by = $1, accepted_at = $2
       WHERE token_hash = $3 AND accepted_at IS NULL AND expires_at > $2 AND name = $4
       RETURNING *`,
      [account.id, now, tokenHash, account.name],
    )
    if (!row)
      return refusedInvitation(
        pg.one<InvitationRow>('SELECT * FROM invitations WHERE token_hash = $1', [tokenHash]),
        account,
        now,
      )
    addMember(pg, row.workspace_id, account.id, row.role, now)
    return {
      kind: 'accepted',
      invitation: toInvitation(row),
      role: roleIn(pg, row.workspace_id, account.id)!,
    }
  })
}

/** `AccountRepository.countLoginAttempt`: the attempts of `key` in its current window. */
function countLoginAttempt(pg: SyncPg, key: string, now: number, windowMs: number): number {
  return pg.one<{ count: number }>(
    `INSERT INTO login_attempts AS a (key, window_start, count) VALUES ($1, $2, 1)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN a.window_start <= $2 - $3::bigint THEN 1 ELSE a.count + 1 END,
       window_start = CASE WHEN a.window_start <= $2 - $3::bigint THEN $2 ELSE a.window_start END
     RETURNING count`,
    [key, now, windowMs],
  )!.count
}
