import type { Db } from './db'

/** interface.md "What the service does" 7 and "Limits": a one-time free grant of 10,000 calls. */
export const FREE_GRANT_CREDITS = 10_000

interface Usage {
  tenant: string
  /** Credits left in all (free and paid). */
  balance: number
  freeGrant: number
  freeRemaining: number
  paidRemaining: number
  /** Credits charged so far. */
  charged: number
}

export interface LedgerRepository {
  /**
   * Charges `amount` credits once per `ref` (a run id, an operation key): a repeat with the same
   * ref charges nothing and returns false. The free grant is spent first, then paid credits.
   * The balance may not go below zero: returns false too when it would (nothing is written).
   */
  charge(tenant: string, ref: string, amount: number, reason: string, now: number): boolean
  /**
   * Charges one credit for a succeeded site-tool run (interface.md "What the service does" 7), kept as a
   * running count per workspace: the run's own `billed` flag, written in the same transaction by
   * the caller, is its record (no ledger row per call). Once per run is the caller's
   * rule (a run succeeds once). Returns false, writing nothing, when the balance is empty.
   */
  chargeRun(tenant: string, now: number): boolean
  /**
   * `chargeRun` for a caller that does not need its answer (it read the balance in the same
   * transaction): inside a transaction on PostgreSQL it is sent with the transaction's next
   * statement or its COMMIT (no round trip of its own); elsewhere it charges at once.
   */
  chargeRunSoon(tenant: string, now: number): void
  /** True when `ref` was charged already (a repeated operation costs nothing again). */
  charged(tenant: string, ref: string): boolean
  /** Adds paid credits (a purchase). */
  purchase(tenant: string, ref: string, amount: number, now: number): void
  usage(tenant: string, now: number): Usage
  /**
   * The workspace's newest movements first, at most `limit` (the Usage view): the ledger's rows
   * and the billed runs (`run:<runId>`, one credit each, at the run's end).
   */
  entries(tenant: string, limit: number): LedgerEntry[]
}

/** One movement of credits: `amount` is positive for grants and purchases, negative for charges. */
export interface LedgerEntry {
  kind: 'grant' | 'purchase' | 'charge'
  amount: number
  /** The run id or operation key charged, or the grant's name. */
  ref: string
  reason: string
  /** Milliseconds since the Unix epoch. */
  at: number
}

/**
 * Creates the billing ledger over an open database: one ledger per workspace, every movement a
 * row, the one-time free grant counted from the first read and written with the first movement
 * (a read writes nothing), charges unique per (workspace, ref).
 */
export function createLedgerRepository(db: Db): LedgerRepository {
  const grant = (tenant: string, now: number) =>
    db
      .prepare(
        `INSERT OR IGNORE INTO ledger (tenant, kind, amount, ref, reason, at)
         VALUES (?, 'grant', ?, 'grant:free', 'one-time free grant', ?)`,
      )
      .run(tenant, FREE_GRANT_CREDITS, now)
  // Sums per workspace, read once and then kept up to date by this process's own writes: a
  // billed run must not cost a scan of every ledger row (only this process writes the ledger).
  const totals = new Map<string, { granted: number; purchased: number; charged: number }>()
  const sums = (tenant: string) => {
    let t = totals.get(tenant)
    if (!t) {
      t = readSums(tenant)
      totals.set(tenant, t)
    }
    return t
  }
  const readSums = (tenant: string) =>
    db
      .prepare(
        `SELECT
           COALESCE(SUM(CASE WHEN kind = 'grant' THEN amount END), 0) AS granted,
           COALESCE(SUM(CASE WHEN kind = 'purchase' THEN amount END), 0) AS purchased,
           COALESCE(-SUM(CASE WHEN kind = 'charge' THEN amount END), 0)
             + COALESCE((SELECT charged FROM ledger_run_charges WHERE tenant = @tenant), 0)
             AS charged
         FROM ledger WHERE tenant = @tenant`,
      )
      .get({ tenant }) as { granted: number; purchased: number; charged: number }
  // The one-time grant counts from the first read of the balance but is written only with the
  // first movement: reading the balance, or a request refused after reading it, writes nothing.
  const ensureGranted = (tenant: string, now: number) => {
    if (sums(tenant).granted > 0) return
    if (grant(tenant, now).changes > 0) sums(tenant).granted += FREE_GRANT_CREDITS
  }
  const usage = (tenant: string, _now: number): Usage => {
    const sum = sums(tenant)
    const granted = sum.granted > 0 ? sum.granted : FREE_GRANT_CREDITS
    const { purchased, charged } = sum
    const freeRemaining = Math.max(0, granted - charged)
    const paidRemaining = purchased - Math.max(0, charged - granted)
    return {
      tenant,
      balance: freeRemaining + paidRemaining,
      freeGrant: granted,
      freeRemaining,
      paidRemaining,
      charged,
    }
  }
  const charge = db.transaction(
    (tenant: string, ref: string, amount: number, reason: string, now: number) => {
      if (usage(tenant, now).balance < amount) return false
      ensureGranted(tenant, now)
      const added =
        db
          .prepare(
            `INSERT OR IGNORE INTO ledger (tenant, kind, amount, ref, reason, at)
             VALUES (?, 'charge', ?, ?, ?, ?)`,
          )
          .run(tenant, -amount, ref, reason, now).changes > 0
      if (added) sums(tenant).charged += amount
      return added
    },
  )
  const chargeRun = (tenant: string, now: number) => {
    if (usage(tenant, now).balance < 1) return false
    ensureGranted(tenant, now)
    db.prepare(
      `INSERT INTO ledger_run_charges (tenant, charged) VALUES (?, 1)
       ON CONFLICT (tenant) DO UPDATE SET charged = charged + 1`,
    ).run(tenant)
    sums(tenant).charged += 1
    return true
  }
  return {
    entries(tenant, limit) {
      const rows = db
        .prepare(
          'SELECT kind, amount, ref, reason, at FROM ledger WHERE tenant = ? ORDER BY id DESC LIMIT ?',
        )
        .all(tenant, limit) as LedgerEntry[]
      // Newest runs first by rowid (insertion order), so only the last `limit` billed ones are read.
      const runs = db
        .prepare(
          `SELECT 'charge' AS kind, -1 AS amount, 'run:' || id AS ref, 'site tool call' AS reason,
             COALESCE(finished_at, updated_at) AS at
           FROM runs WHERE tenant = ? AND billed = 1 ORDER BY rowid DESC LIMIT ?`,
        )
        .all(tenant, limit) as LedgerEntry[]
      // (The grant is written with the first movement, at its time: it is listed before it.)
      const grantLast = (e: LedgerEntry) => (e.kind === 'grant' ? 1 : 0)
      return [...rows, ...runs]
        .sort((a, b) => b.at - a.at || grantLast(a) - grantLast(b))
        .slice(0, limit)
    },
    charge: (tenant, ref, amount, reason, now) => charge(tenant, ref, amount, reason, now),
    chargeRun,
    chargeRunSoon: (tenant, now) => void chargeRun(tenant, now),
    charged: (tenant, ref) =>
      db.prepare('SELECT 1 FROM ledger WHERE tenant = ? AND ref = ?').get(tenant, ref) !==
      undefined,
    purchase(tenant, ref, amount, now) {
      ensureGranted(tenant, now)
      const added = db
        .prepare(
          `INSERT OR IGNORE INTO ledger (tenant, kind, amount, ref, reason, at)
         VALUES (?, 'purchase', ?, ?, 'paid credits', ?)`,
        )
        .run(tenant, amount, ref, now).changes
      if (added) sums(tenant).purchased += amount
    },
    usage,
  }
}
