import { FREE_GRANT_CREDITS, type LedgerEntry, type LedgerRepository } from '../ledgerRepository'
import type { SyncPg } from './pgSync'

const CHARGE_SQL = 'SELECT sitecall_charge($1, $2, $3, $4, $5, $6) AS ok'
/** A workspace's balance row (`usage`); `prefetchUsage` queues the same read. */
const USAGE_SQL = 'SELECT granted, purchased, charged FROM ledger_balances WHERE tenant = $1'

/** Queues `usage(tenant)`'s read to ride with the next statement (`SyncPg.prefetch`). */
export function prefetchUsage(pg: SyncPg, tenant: string): void {
  pg.prefetch(USAGE_SQL, [tenant])
}

/**
 * The billing ledger on PostgreSQL (the `LedgerRepository` contract). Balances are one row per
 * workspace moved by `sitecall_charge` (migration 001) in one statement: the row lock orders
 * charges of one workspace across nodes and the balance check cannot be passed by two at once;
 * nothing is cached on a node (another node may have charged since).
 */
export function createPgLedgerRepository(pg: SyncPg): LedgerRepository {
  const charge = (
    tenant: string,
    ref: string | null,
    amount: number,
    reason: string,
    now: number,
  ) =>
    pg.one<{ ok: boolean }>(CHARGE_SQL, [tenant, ref, amount, reason, now, FREE_GRANT_CREDITS])!.ok
  return {
    charge: (tenant, ref, amount, reason, now) => charge(tenant, ref, amount, reason, now),
    chargeRunSoon: (tenant, now) =>
      pg.defer(CHARGE_SQL, [tenant, null, 1, 'site tool call', now, FREE_GRANT_CREDITS]),
    // A site-tool run's credit is counted on the balance only: the run's `billed` flag, written
    // in the same transaction by the caller, is its record.
    chargeRun: (tenant, now) => charge(tenant, null, 1, 'site tool call', now),
    charged: (tenant, ref) =>
      pg.one('SELECT 1 AS x FROM ledger WHERE tenant = $1 AND ref = $2', [tenant, ref]) !==
      undefined,
    purchase(tenant, ref, amount, now) {
      pg.transaction(() => {
        pg.query('SELECT sitecall_ensure_grant($1, $2, $3)', [tenant, now, FREE_GRANT_CREDITS])
        const added = pg.query(
          `INSERT INTO ledger (tenant, kind, amount, ref, reason, at)
           VALUES ($1, 'purchase', $2, $3, 'paid credits', $4) ON CONFLICT (tenant, ref) DO NOTHING`,
          [tenant, amount, ref, now],
        ).rowCount
        if (added)
          pg.query('UPDATE ledger_balances SET purchased = purchased + $2 WHERE tenant = $1', [
            tenant,
            amount,
          ])
      })
    },
    usage(tenant) {
      const row = pg.one<{ granted: number; purchased: number; charged: number }>(USAGE_SQL, [
        tenant,
      ]) ?? { granted: FREE_GRANT_CREDITS, purchased: 0, charged: 0 }
      const { granted, purchased, charged } = row
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
    },
    entries(tenant, limit) {
      const rows = pg.query<LedgerEntry>(
        'SELECT kind, amount, ref, reason, at FROM ledger WHERE tenant = $1 ORDER BY id DESC LIMIT $2',
        [tenant, limit],
      ).rows
      const runs = pg.query<LedgerEntry>(
        `SELECT 'charge' AS kind, -1 AS amount, 'run:' || id AS ref, 'site tool call' AS reason,
           COALESCE(finished_at, updated_at) AS at
         FROM runs WHERE tenant = $1 AND billed = 1 ORDER BY seq DESC LIMIT $2`,
        [tenant, limit],
      ).rows
      const grantLast = (e: LedgerEntry) => (e.kind === 'grant' ? 1 : 0)
      return [...rows, ...runs]
        .sort((a, b) => b.at - a.at || grantLast(a) - grantLast(b))
        .slice(0, limit)
    },
  }
}
