import type { Db } from './db'

/** interface.md "Search receipt": outer status. */
export type ReceiptStatus = 'completed' | 'uncertain'

/** The stored receipt of one account-API operation (interface.md "Resources": search receipt). */
export interface OperationReceipt<R = unknown> {
  tenant: string
  /** The operation key with its ledger namespace (`search:<key>`). */
  opKey: string
  /** What was done (`search`, `task`...). */
  operation: string
  /** sha256 of the canonical inputs: a repeat with other inputs is an idempotency conflict. */
  inputHash: string
  status: ReceiptStatus
  /** Credits the operation cost (charged once). */
  cost: number
  result: R
  /** Milliseconds since the Unix epoch. */
  createdAt: number
  updatedAt: number
}

export interface ReceiptRepository {
  get<R = unknown>(tenant: string, opKey: string): OperationReceipt<R> | null
  /**
   * Stores a receipt unless the key has one already; returns the stored one and whether it was
   * this call's (a racing repeat gets the first receipt back, never a second row).
   */
  put<R>(receipt: OperationReceipt<R>): { receipt: OperationReceipt<R>; created: boolean }
  /** Finishes an `uncertain` receipt (an operation that outlived its request); null if none. */
  complete<R>(
    tenant: string,
    opKey: string,
    patch: { status: ReceiptStatus; result: R },
    now: number,
  ): OperationReceipt<R> | null
}

interface ReceiptRow {
  tenant: string
  op_key: string
  operation: string
  input_hash: string
  status: ReceiptStatus
  cost: number
  result: string
  created_at: number
  updated_at: number
}

function toReceipt<R>(row: ReceiptRow): OperationReceipt<R> {
  return {
    tenant: row.tenant,
    opKey: row.op_key,
    operation: row.operation,
    inputHash: row.input_hash,
    status: row.status,
    cost: row.cost,
    result: JSON.parse(row.result) as R,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/** Creates the receipt repository over an open database (migration 005). */
export function createReceiptRepository(db: Db): ReceiptRepository {
  const get = <R>(tenant: string, opKey: string) => {
    const row = db
      .prepare('SELECT * FROM operation_receipts WHERE tenant = ? AND op_key = ?')
      .get(tenant, opKey) as ReceiptRow | undefined
    return row ? toReceipt<R>(row) : null
  }
  return {
    get,
    put(receipt) {
      const changes = db
        .prepare(
          `INSERT OR IGNORE INTO operation_receipts
             (tenant, op_key, operation, input_hash, status, cost, result, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          receipt.tenant,
          receipt.opKey,
          receipt.operation,
          receipt.inputHash,
          receipt.status,
          receipt.cost,
          JSON.stringify(receipt.result),
          receipt.createdAt,
          receipt.updatedAt,
        ).changes
      return { receipt: get(receipt.tenant, receipt.opKey)!, created: changes > 0 }
    },
    complete(tenant, opKey, patch, now) {
      const changes = db
        .prepare(
          `UPDATE operation_receipts SET status = ?, result = ?, updated_at = ?
           WHERE tenant = ? AND op_key = ? AND status = 'uncertain'`,
        )
        .run(patch.status, JSON.stringify(patch.result), now, tenant, opKey).changes
      return changes ? get(tenant, opKey) : null
    },
  }
}
