import type { OperationReceipt, ReceiptRepository, ReceiptStatus } from '../receiptRepository'
import type { SyncPg } from './pgSync'

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

const toReceipt = <R>(row: ReceiptRow): OperationReceipt<R> => ({
  tenant: row.tenant,
  opKey: row.op_key,
  operation: row.operation,
  inputHash: row.input_hash,
  status: row.status,
  cost: row.cost,
  result: JSON.parse(row.result) as R,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
})

/**
 * Receipts of account-API operations on PostgreSQL (the `ReceiptRepository` contract): the
 * primary key (workspace, operation key) makes two nodes racing on one key store one receipt;
 * the loser reads the winner's.
 */
export function createPgReceiptRepository(pg: SyncPg): ReceiptRepository {
  const get = <R>(tenant: string, opKey: string): OperationReceipt<R> | null => {
    const row = pg.one<ReceiptRow>(
      'SELECT * FROM operation_receipts WHERE tenant = $1 AND op_key = $2',
      [tenant, opKey],
    )
    return row ? toReceipt<R>(row) : null
  }
  return {
    get,
    put(receipt) {
      const row = pg.one<ReceiptRow>(
        `INSERT INTO operation_receipts
           (tenant, op_key, operation, input_hash, status, cost, result, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (tenant, op_key) DO NOTHING RETURNING *`,
        [
          receipt.tenant,
          receipt.opKey,
          receipt.operation,
          receipt.inputHash,
          receipt.status,
          receipt.cost,
          JSON.stringify(receipt.result),
          receipt.createdAt,
          receipt.updatedAt,
        ],
      )
      if (row) return { receipt: toReceipt(row), created: true }
      return { receipt: get(receipt.tenant, receipt.opKey)!, created: false }
    },
    complete(tenant, opKey, patch, now) {
      const row = pg.one<ReceiptRow>(
        `UPDATE operation_receipts SET status = $1, result = $2, updated_at = $3
         WHERE tenant = $4 AND op_key = $5 AND status = 'uncertain' RETURNING *`,
        [patch.status, JSON.stringify(patch.result), now, tenant, opKey],
      )
      return row ? toReceipt(row) : null
    },
  }
}
