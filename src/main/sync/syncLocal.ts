import type { Db } from '../store/db'
import type { ToolSpec } from '../../shared/toolSpec'

/** A workspace of this desktop linked to a team server (`sitecall link`). */
export interface SyncLink {
  tenant: string
  /** The server's base URL (`https://sitecall.example.org`), no trailing slash. */
  serverUrl: string
  /** The server workspace (`ws_…`) sent as `X-Service-Workspace`; null: the account's first. */
  workspace: string | null
  /** `oauth`: an OAuth refresh token (PKCE public client `clientId`); `token`: an owner token. */
  auth: 'oauth' | 'token'
  clientId: string | null
  /** Where the token is: the OS keychain, or sealed by the vault in `sealedToken`. */
  tokenStore: 'keychain' | 'vault'
  sealedToken: Buffer | null
  /** The server revision pulled up to. */
  pulledRevision: number
  linkedAt: number
}

/** One change waiting to be pushed, in order; `opKey` is its operation key for every attempt. */
interface OutboxEntry {
  seq: number
  toolId: string
  op: 'put' | 'delete'
  opKey: string
  createdAt: number
  /** When it was first sent (ms), null before; a sent entry is sent again under the same key. */
  sentAt: number | null
}

/** A push the server refused as stale, kept until the person chooses (`sync --take`). */
export interface SyncConflict {
  toolId: string
  /** This desktop's version; null: deleted here. */
  mine: ToolSpec | null
  /** The server's version; null: deleted there. */
  theirs: ToolSpec | null
  theirRevision: number
  createdAt: number
}

/**
 * The desktop's side of tool sync in its SQLite file (migration 014): the link, the
 * server revision each tool was last in step with (its base), the outbox that the `tools`
 * table's triggers fill when a linked workspace's tool is verified, edited, quarantined or
 * deleted, and the conflicts. Holds no token (see `SyncLink.tokenStore`). One job: these rows.
 */
export interface SyncLocal {
  link(tenant: string): SyncLink | null
  /** Links `tenant` (replacing a link), starting from revision 0 with an empty outbox. */
  saveLink(link: Omit<SyncLink, 'pulledRevision'>): void
  /** Records where a link's token now is (a refresh token rotated). */
  saveTokenPlace(tenant: string, place: Pick<SyncLink, 'tokenStore' | 'sealedToken'>): void
  /**
   * Forgets the link, its bases, outbox and conflicts (the tools stay). Returns whether there
   * was one.
   */
  unlink(tenant: string): boolean
  setPulledRevision(tenant: string, revision: number): void
  /**
   * Puts every verified or quarantined tool of `tenant` in the outbox (the first sync after a
   * link pushes what the desktop already has). Returns how many.
   */
  enqueueAll(tenant: string): number
  /** The outbox in order. */
  outbox(tenant: string): OutboxEntry[]
  /** Adds a change to push under a new operation key (a conflict resolved as mine). */
  enqueue(tenant: string, toolId: string, op: 'put' | 'delete'): void
  /** Drops a tool's changes waiting to be pushed (a conflict resolved either way). */
  dropOutbox(tenant: string, toolId: string): void
  markSent(seq: number, now: number): void
  /** Removes an entry once the server answered it. */
  done(seq: number): void
  /** The server revision the local tool was last in step with (0: never). */
  base(tenant: string, toolId: string): number
  setBase(tenant: string, toolId: string, revision: number): void
  dropBase(tenant: string, toolId: string): void
  conflicts(tenant: string): SyncConflict[]
  conflict(tenant: string, toolId: string): SyncConflict | null
  saveConflict(tenant: string, conflict: SyncConflict): void
  dropConflict(tenant: string, toolId: string): void
  /**
   * Runs `fn` in one transaction in which the outbox triggers stay quiet for `tenant`: what the
   * server sent is applied without being pushed back.
   */
  applying<T>(tenant: string, fn: () => T): T
}

/** The link's rows of `db` (`sync_links`); forgetting a link forgets what hangs on it. */
function linkRows(
  db: Db,
): Pick<SyncLocal, 'link' | 'saveLink' | 'saveTokenPlace' | 'unlink' | 'setPulledRevision'> {
  const forget = (tenant: string) => {
    db.prepare('DELETE FROM sync_outbox WHERE tenant = ?').run(tenant)
    db.prepare('DELETE FROM sync_bases WHERE tenant = ?').run(tenant)
    db.prepare('DELETE FROM sync_conflicts WHERE tenant = ?').run(tenant)
  }
  return {
    link: (tenant) => {
      const row = db
        .prepare(
          `SELECT tenant, server_url AS serverUrl, workspace, auth, client_id AS clientId,
             token_store AS tokenStore, sealed_token AS sealedToken,
             pulled_revision AS pulledRevision, linked_at AS linkedAt
           FROM sync_links WHERE tenant = ?`,
        )
        .get(tenant) as SyncLink | undefined
      return row ?? null
    },
    saveLink: (l) =>
      db.transaction(() => {
        forget(l.tenant)
        db.prepare(
          `INSERT INTO sync_links (tenant, server_url, workspace, auth, client_id, token_store,
             sealed_token, pulled_revision, linked_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)
           ON CONFLICT (tenant) DO UPDATE SET server_url = excluded.server_url,
             workspace = excluded.workspace, auth = excluded.auth, client_id = excluded.client_id,
             token_store = excluded.token_store, sealed_token = excluded.sealed_token,
             pulled_revision = 0, linked_at = excluded.linked_at`,
        ).run(
          l.tenant,
          l.serverUrl,
          l.workspace,
          l.auth,
          l.clientId,
          l.tokenStore,
          l.sealedToken,
          l.linkedAt,
        )
      })(),
    saveTokenPlace: (tenant, place) =>
      void db
        .prepare('UPDATE sync_links SET token_store = ?, sealed_token = ? WHERE tenant = ?')
        .run(place.tokenStore, place.sealedToken, tenant),
    unlink: (tenant) =>
      db.transaction(() => {
        forget(tenant)
        return db.prepare('DELETE FROM sync_links WHERE tenant = ?').run(tenant).changes > 0
      })(),
    setPulledRevision: (tenant, revision) =>
      void db
        .prepare('UPDATE sync_links SET pulled_revision = ? WHERE tenant = ?')
        .run(revision, tenant),
  }
}

/** The outbox's rows of `db` (`sync_outbox`): the changes waiting to be pushed, in order. */
function outboxRows(
  db: Db,
): Pick<SyncLocal, 'enqueueAll' | 'outbox' | 'enqueue' | 'dropOutbox' | 'markSent' | 'done'> {
  return {
    enqueueAll: (tenant) =>
      db
        .prepare(
          `INSERT INTO sync_outbox (tenant, tool_id, op, op_key, created_at)
           SELECT tenant, id, 'put', 'sop_' || lower(hex(randomblob(16))),
             CAST(unixepoch('subsec') * 1000 AS INTEGER)
           FROM tools WHERE tenant = ? AND status IN ('verified', 'quarantined')
             AND id NOT IN (SELECT tool_id FROM sync_outbox WHERE tenant = ?)
           ORDER BY updated_at, id`,
        )
        .run(tenant, tenant).changes,
    outbox: (tenant) =>
      db
        .prepare(
          `SELECT seq, tool_id AS toolId, op, op_key AS opKey, created_at AS createdAt,
             sent_at AS sentAt FROM sync_outbox WHERE tenant = ? ORDER BY seq`,
        )
        .all(tenant) as OutboxEntry[],
    enqueue: (tenant, toolId, op) =>
      void db
        .prepare(
          `INSERT INTO sync_outbox (tenant, tool_id, op, op_key, created_at)
           VALUES (?, ?, ?, 'sop_' || lower(hex(randomblob(16))),
             CAST(unixepoch('subsec') * 1000 AS INTEGER))`,
        )
        .run(tenant, toolId, op),
    dropOutbox: (tenant, toolId) =>
      void db
        .prepare('DELETE FROM sync_outbox WHERE tenant = ? AND tool_id = ?')
        .run(tenant, toolId),
    markSent: (seq, now) =>
      void db
        .prepare('UPDATE sync_outbox SET sent_at = ? WHERE seq = ? AND sent_at IS NULL')
        .run(now, seq),
    done: (seq) => void db.prepare('DELETE FROM sync_outbox WHERE seq = ?').run(seq),
  }
}

/** The bases' rows of `db` (`sync_bases`): the server revision each tool was in step with. */
function baseRows(db: Db): Pick<SyncLocal, 'base' | 'setBase' | 'dropBase'> {
  return {
    base: (tenant, toolId) =>
      (
        db
          .prepare('SELECT revision FROM sync_bases WHERE tenant = ? AND tool_id = ?')
          .get(tenant, toolId) as { revision: number } | undefined
      )?.revision ?? 0,
    setBase: (tenant, toolId, revision) =>
      void db
        .prepare(
          `INSERT INTO sync_bases (tenant, tool_id, revision) VALUES (?, ?, ?)
           ON CONFLICT (tenant, tool_id) DO UPDATE SET revision = excluded.revision`,
        )
        .run(tenant, toolId, revision),
    dropBase: (tenant, toolId) =>
      void db
        .prepare('DELETE FROM sync_bases WHERE tenant = ? AND tool_id = ?')
        .run(tenant, toolId),
  }
}

const CONFLICT_COLUMNS = `tool_id AS toolId, mine, theirs, their_revision AS theirRevision,
    created_at AS createdAt`

/** A `sync_conflicts` row as SQLite returns it (the two versions as JSON text). */
interface ConflictRow {
  toolId: string
  mine: string | null
  theirs: string | null
  theirRevision: number
  createdAt: number
}

const parse = (text: string | null) => (text === null ? null : (JSON.parse(text) as ToolSpec))
const conflictRow = (r: ConflictRow): SyncConflict => ({
  ...r,
  mine: parse(r.mine),
  theirs: parse(r.theirs),
})

/** The conflicts' rows of `db` (`sync_conflicts`): pushes refused as stale, kept until chosen. */
function conflictRows(
  db: Db,
): Pick<SyncLocal, 'conflicts' | 'conflict' | 'saveConflict' | 'dropConflict'> {
  return {
    conflicts: (tenant) =>
      (
        db
          .prepare(
            `SELECT ${CONFLICT_COLUMNS} FROM sync_conflicts WHERE tenant = ? ORDER BY created_at`,
          )
          .all(tenant) as ConflictRow[]
      ).map(conflictRow),
    conflict: (tenant, toolId) => {
      const row = db
        .prepare(`SELECT ${CONFLICT_COLUMNS} FROM sync_conflicts WHERE tenant = ? AND tool_id = ?`)
        .get(tenant, toolId) as ConflictRow | undefined
      return row ? conflictRow(row) : null
    },
    saveConflict: (tenant, c) =>
      void db
        .prepare(
          `INSERT INTO sync_conflicts (tenant, tool_id, mine, theirs, their_revision, created_at)
           VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (tenant, tool_id) DO UPDATE SET mine = excluded.mine,
             theirs = excluded.theirs, their_revision = excluded.their_revision`,
        )
        .run(
          tenant,
          c.toolId,
          c.mine === null ? null : JSON.stringify(c.mine),
          c.theirs === null ? null : JSON.stringify(c.theirs),
          c.theirRevision,
          c.createdAt,
        ),
    dropConflict: (tenant, toolId) =>
      void db
        .prepare('DELETE FROM sync_conflicts WHERE tenant = ? AND tool_id = ?')
        .run(tenant, toolId),
  }
}

/** The desktop's sync rows over its open SQLite database. */
export function createSyncLocal(db: Db): SyncLocal {
  return {
    ...linkRows(db),
    ...outboxRows(db),
    ...baseRows(db),
    ...conflictRows(db),
    applying: (tenant, fn) =>
      db.transaction(() => {
        db.prepare('INSERT OR IGNORE INTO sync_applying (tenant) VALUES (?)').run(tenant)
        try {
          return fn()
        } finally {
          db.prepare('DELETE FROM sync_applying WHERE tenant = ?').run(tenant)
        }
      })(),
  }
}
