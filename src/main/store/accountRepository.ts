import type { Db } from './db'
import type { MemberRole } from './memberRules'

/** An account of a team server. `name` is email-like and lower-case. */
export interface Account {
  id: string
  name: string
  createdAt: number
}

/**
 * A workspace: the `tenant` every per-workspace record (tools, traces, runs, keys, ledger) is
 * keyed by. `team`: made by an account; `end_user`: an org key's end user's, made on first use,
 * `parent` being the org key's workspace.
 */
export interface Workspace {
  id: string
  name: string
  kind: 'team' | 'end_user'
  parent: string | null
  createdAt: number
}

export interface Member {
  accountId: string
  name: string
  role: MemberRole
  addedAt: number
}

export interface Invitation {
  id: string
  workspaceId: string
  /** The account name invited; only that account may accept. */
  name: string
  role: 'admin' | 'member'
  invitedBy: string
  createdAt: number
  expiresAt: number
  acceptedBy: string | null
  acceptedAt: number | null
}

/** What accepting an invitation came to. */
export type AcceptOutcome =
  | { kind: 'accepted'; invitation: Invitation; role: MemberRole }
  | { kind: 'unknown' }
  | { kind: 'used' | 'expired' | 'wrong_account'; invitation: Invitation }

/**
 * Accounts, their owner-token sessions, workspaces, members and invitations, on
 * both stores (`createAccountRepository` on SQLite, `pgAccountRepository.ts` on PostgreSQL). The
 * store keeps what must be decided atomically: a name is taken once (`createAccount` answers
 * null for the second); the last owner cannot go (`removeMember`/`setRole` answer `last_owner`,
 * decided under the workspace row's lock on PostgreSQL); an invitation is accepted once
 * (`acceptInvitation`: one `accepted`, every other attempt `used`). Who may ask for a change is
 * `memberRules.ts`'s, checked by the routes. Times are ms since the Unix epoch.
 */
export interface AccountRepository {
  /** Adds an account; null when the name is taken. */
  createAccount(
    input: { id: string; name: string; passwordHash: string },
    now: number,
  ): Account | null
  /** The account of `name` with its password hash, or null. */
  findByName(name: string): (Account & { passwordHash: string }) | null
  getAccount(id: string): Account | null
  /** Keeps an owner token's SHA-256 for `accountId` until `expiresAt`; drops expired ones. */
  createSession(hash: string, accountId: string, expiresAt: number, now: number): void
  /** Ends a session (logout); false when there was none. */
  deleteSession(hash: string): boolean
  /** The account and expiry of an unexpired session, or null. */
  session(hash: string, now: number): { accountId: string; expiresAt: number } | null
  /** Makes a workspace; with `ownerId`, that account is its first owner (one transaction). */
  createWorkspace(
    input: {
      id: string
      name: string
      kind?: Workspace['kind']
      parent?: string | null
      ownerId?: string
    },
    now: number,
  ): Workspace
  /** Makes the workspace unless it exists; true when this call made it. */
  ensureWorkspace(
    input: { id: string; name: string; kind: Workspace['kind']; parent?: string | null },
    now: number,
  ): boolean
  getWorkspace(id: string): Workspace | null
  /** The workspaces `accountId` is a member of, with its role, oldest first. */
  workspacesOf(accountId: string): Array<Workspace & { role: MemberRole }>
  /** `accountId`'s role in the workspace, or null when not a member. */
  roleIn(workspaceId: string, accountId: string): MemberRole | null
  /** The workspace's members, by when they joined. */
  members(workspaceId: string): Member[]
  /** Adds a member; false when already one (their role is kept). */
  addMember(workspaceId: string, accountId: string, role: MemberRole, now: number): boolean
  /** Changes a member's role; `last_owner` when that would leave the workspace without owner. */
  setRole(
    workspaceId: string,
    accountId: string,
    role: MemberRole,
  ): 'changed' | 'not_member' | 'last_owner'
  /** Removes a member; `last_owner` for the only owner. */
  removeMember(workspaceId: string, accountId: string): 'removed' | 'not_member' | 'last_owner'
  /** Stores an invitation by its token's SHA-256. */
  createInvitation(
    input: Omit<Invitation, 'createdAt' | 'acceptedBy' | 'acceptedAt'> & { tokenHash: string },
    now: number,
  ): Invitation
  /** The workspace's invitations not yet accepted, newest first. */
  invitations(workspaceId: string): Invitation[]
  /**
   * Accepts the invitation of `tokenHash` for `account` and adds it as a member, in one
   * transaction. Of any number of concurrent attempts (on any nodes) one is `accepted`; the
   * others are `used`. `expired` after its `expiresAt`; `wrong_account` when it names another
   * account; `unknown` when there is none.
   */
  acceptInvitation(tokenHash: string, account: Account, now: number): AcceptOutcome
  /**
   * Counts one login attempt for `key` (an account name) and answers how many this window
   * holds, this one included; a window older than `windowMs` starts again at 1. One atomic
   * upsert: attempts racing on several nodes are all counted.
   */
  countLoginAttempt(key: string, now: number, windowMs: number): number
  /** Forgets `key`'s attempts (after a successful login). */
  clearLoginAttempts(key: string): void
}

export interface AccountRow {
  id: string
  name: string
  password_hash: string
  created_at: number
}
export interface WorkspaceRow {
  id: string
  name: string
  kind: Workspace['kind']
  parent: string | null
  created_at: number
}
export interface InvitationRow {
  id: string
  workspace_id: string
  name: string
  role: Invitation['role']
  invited_by: string
  created_at: number
  expires_at: number
  accepted_by: string | null
  accepted_at: number | null
}

export const toAccount = (r: AccountRow): Account => ({
  id: r.id,
  name: r.name,
  createdAt: Number(r.created_at),
})
export const toWorkspace = (r: WorkspaceRow): Workspace => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  parent: r.parent,
  createdAt: Number(r.created_at),
})
export const toInvitation = (r: InvitationRow): Invitation => ({
  id: r.id,
  workspaceId: r.workspace_id,
  name: r.name,
  role: r.role,
  invitedBy: r.invited_by,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
  acceptedBy: r.accepted_by,
  acceptedAt: r.accepted_at === null ? null : Number(r.accepted_at),
})

/** Why a spent or refused invitation row was not accepted (both stores). */
export function refusedInvitation(
  row: InvitationRow | undefined,
  account: Account,
  now: number,
): AcceptOutcome {
  if (!row) return { kind: 'unknown' }
  const invitation = toInvitation(row)
  if (row.accepted_at !== null) return { kind: 'used', invitation }
  if (Number(row.expires_at) <= now) return { kind: 'expired', invitation }
  if (row.name !== account.name) return { kind: 'wrong_account', invitation }
  return { kind: 'used', invitation }
}

/** The SQLite account repository (the same contract as PostgreSQL's). */
export function createAccountRepository(db: Db): AccountRepository {
  return {
    createAccount({ id, name, passwordHash }, now) {
      const made = db
        .prepare(
          `INSERT INTO accounts (id, name, password_hash, created_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (name) DO NOTHING`,
        )
        .run(id, name, passwordHash, now)
      return made.changes > 0 ? { id, name, createdAt: now } : null
    },
    findByName(name) {
      const row = db.prepare('SELECT * FROM accounts WHERE name = ?').get(name) as
        AccountRow | undefined
      return row ? { ...toAccount(row), passwordHash: row.password_hash } : null
    },
    getAccount(id) {
      const row = db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as
        AccountRow | undefined
      return row ? toAccount(row) : null
    },
    createSession(hash, accountId, expiresAt, now) {
      db.prepare('DELETE FROM account_sessions WHERE expires_at <= ?').run(now)
      db.prepare(
        'INSERT INTO account_sessions (hash, account_id, expires_at) VALUES (?, ?, ?)',
      ).run(hash, accountId, expiresAt)
    },
    deleteSession: (hash) =>
      db.prepare('DELETE FROM account_sessions WHERE hash = ?').run(hash).changes > 0,
    session(hash, now) {
      const row = db
        .prepare(
          'SELECT account_id, expires_at FROM account_sessions WHERE hash = ? AND expires_at > ?',
        )
        .get(hash, now) as { account_id: string; expires_at: number } | undefined
      return row ? { accountId: row.account_id, expiresAt: row.expires_at } : null
    },
    createWorkspace({ id, name, kind = 'team', parent = null, ownerId }, now) {
      db.transaction(() => {
        db.prepare(
          'INSERT INTO workspaces (id, name, kind, parent, created_at) VALUES (?, ?, ?, ?, ?)',
        ).run(id, name, kind, parent, now)
        if (ownerId) addMember(db, id, ownerId, 'owner', now)
      })()
      return { id, name, kind, parent, createdAt: now }
    },
    ensureWorkspace({ id, name, kind, parent = null }, now) {
      return (
        db
          .prepare(
            `INSERT INTO workspaces (id, name, kind, parent, created_at) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (id) DO NOTHING`,
          )
          .run(id, name, kind, parent, now).changes > 0
      )
    },
    getWorkspace(id) {
      const row = db.prepare('SELECT * FROM workspaces WHERE id = ?').get(id) as
        WorkspaceRow | undefined
      return row ? toWorkspace(row) : null
    },
    workspacesOf(accountId) {
      const rows = db
        .prepare(
          `SELECT w.*, m.role FROM workspaces w JOIN workspace_members m ON m.workspace_id = w.id
           WHERE m.account_id = ? ORDER BY w.created_at, w.id`,
        )
        .all(accountId) as Array<WorkspaceRow & { role: MemberRole }>
      return rows.map((r) => ({ ...toWorkspace(r), role: r.role }))
    },
    roleIn: (workspaceId, accountId) => roleIn(db, workspaceId, accountId),
    members: (workspaceId) => membersOf(db, workspaceId),
    addMember: (workspaceId, accountId, role, now) =>
      addMember(db, workspaceId, accountId, role, now),
    setRole: (workspaceId, accountId, role) => setRole(db, workspaceId, accountId, role),
    removeMember: (workspaceId, accountId) => removeMember(db, workspaceId, accountId),
    createInvitation({ tokenHash, ...input }, now) {
      db.prepare(
        `INSERT INTO invitations (id, workspace_id, name, role, token_hash, invited_by, created_at,
           expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        input.id,
        input.workspaceId,
        input.name,
        input.role,
        tokenHash,
        input.invitedBy,
        now,
        input.expiresAt,
      )
      return { ...input, createdAt: now, acceptedBy: null, acceptedAt: null }
    },
    invitations(workspaceId) {
      const rows = db
        .prepare(
          `SELECT * FROM invitations WHERE workspace_id = ? AND accepted_at IS NULL
           ORDER BY created_at DESC`,
        )
        .all(workspaceId) as InvitationRow[]
      return rows.map(toInvitation)
    },
    acceptInvitation: (tokenHash, account, now) => acceptInvitation(db, tokenHash, account, now),
    countLoginAttempt: (key, now, windowMs) => countLoginAttempt(db, key, now, windowMs),
    clearLoginAttempts(key) {
      db.prepare('DELETE FROM login_attempts WHERE key = ?').run(key)
    },
  }
}

/** The member's role in the workspace, or null when not a member. */
function roleIn(db: Db, workspaceId: string, accountId: string): MemberRole | null {
  const row = db
    .prepare('SELECT role FROM workspace_members WHERE workspace_id = ? AND account_id = ?')
    .get(workspaceId, accountId) as { role: MemberRole } | undefined
  return row?.role ?? null
}

/** How many owners the workspace has. */
function ownerCount(db: Db, workspaceId: string): number {
  return (
    db
      .prepare(
        "SELECT COUNT(*) AS n FROM workspace_members WHERE workspace_id = ? AND role = 'owner'",
      )
      .get(workspaceId) as { n: number }
  ).n
}

/** `AccountRepository.addMember`: false when the account is a member already. */
function addMember(
  db: Db,
  workspaceId: string,
  accountId: string,
  role: MemberRole,
  now: number,
): boolean {
  return (
    db
      .prepare(
        `INSERT INTO workspace_members (workspace_id, account_id, role, added_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (workspace_id, account_id) DO NOTHING`,
      )
      .run(workspaceId, accountId, role, now).changes > 0
  )
}

/** `AccountRepository.members`: the workspace's members, first added first. */
function membersOf(db: Db, workspaceId: string): Member[] {
  const rows = db
    .prepare(
      `SELECT m.account_id, a.name, m.role, m.added_at FROM workspace_members m
       JOIN accounts a ON a.id = m.account_id WHERE m.workspace_id = ?
       ORDER BY m.added_at, a.name`,
    )
    .all(workspaceId) as Array<{
    account_id: string
    name: string
    role: MemberRole
    added_at: number
  }>
  return rows.map((r) => ({
    accountId: r.account_id,
    name: r.name,
    role: r.role,
    addedAt: r.added_at,
  }))
}

/** `AccountRepository.setRole`, in one immediate transaction so the last owner stays. */
function setRole(
  db: Db,
  workspaceId: string,
  accountId: string,
  role: MemberRole,
): 'changed' | 'not_member' | 'last_owner' {
  return db
    .transaction(() => {
      const was = roleIn(db, workspaceId, accountId)
      if (was === null) return 'not_member' as const
      if (was === 'owner' && role !== 'owner' && ownerCount(db, workspaceId) <= 1)
        return 'last_owner' as const
      db.prepare(
        'UPDATE workspace_members SET role = ? WHERE workspace_id = ? AND account_id = ?',
      ).run(role, workspaceId, accountId)
      return 'changed' as const
    })
    .immediate()
}

/** `AccountRepository.removeMember`, in one immediate transaction so the last owner stays. */
function removeMember(
  db: Db,
  workspaceId: string,
  accountId: string,
): 'removed' | 'not_member' | 'last_owner' {
  return db
    .transaction(() => {
      const was = roleIn(db, workspaceId, accountId)
      if (was === null) return 'not_member' as const
      if (was === 'owner' && ownerCount(db, workspaceId) <= 1) return 'last_owner' as const
      db.prepare('DELETE FROM workspace_members WHERE workspace_id = ? AND account_id = ?').run(
        workspaceId,
        accountId,
      )
      return 'removed' as const
    })
    .immediate()
}

/**
 * `AccountRepository.acceptInvitation`: marks the invitation accepted and adds the member in one
 * immediate transaction, so of two attempts one is `accepted` and the other `used`.
 */
function acceptInvitation(db: Db, tokenHash: string, account: Account, now: number): AcceptOutcome {
  return db
    .transaction((): AcceptOutcome => {
      const row = db
        .prepare(
          `UPDATE invitations SET accepted_by = ?, accepted_at = ?
         WHERE token_hash = ? AND accepted_at IS NULL AND expires_at > ? AND name = ?
         RETURNING *`,
        )
        .get(account.id, now, tokenHash, now, account.name) as InvitationRow | undefined
      if (!row) {
        const found = db
          .prepare('SELECT * FROM invitations WHERE token_hash = ?')
          .get(tokenHash) as InvitationRow | undefined
        return refusedInvitation(found, account, now)
      }
      addMember(db, row.workspace_id, account.id, row.role, now)
      return {
        kind: 'accepted',
        invitation: toInvitation(row),
        role: roleIn(db, row.workspace_id, account.id)!,
      }
    })
    .immediate()
}

/** `AccountRepository.countLoginAttempt`: the attempts of `key` in its current window. */
function countLoginAttempt(db: Db, key: string, now: number, windowMs: number): number {
  const row = db
    .prepare(
      `INSERT INTO login_attempts (key, window_start, count) VALUES (?, ?, 1)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN window_start <= excluded.window_start - ? THEN 1 ELSE count + 1 END,
         window_start = CASE WHEN window_start <= excluded.window_start - ?
           THEN excluded.window_start ELSE window_start END
       RETURNING count`,
    )
    .get(key, now, windowMs, windowMs) as { count: number }
  return row.count
}
