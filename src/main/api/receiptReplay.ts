import type { FastifyReply } from 'fastify'
import { ServiceError } from '../../shared/errors'
import type { OperationReceipt } from '../store/receiptRepository'

/** A metered operation's receipt as answered (interface.md "Resources": `{status, cost, result}`). */
export function presentReceipt<R>(receipt: OperationReceipt<R>) {
  return { status: receipt.status, cost: receipt.cost, result: receipt.result }
}

/**
 * Answers a repeated operation key (interface.md "Resources"): the stored receipt again, 200 with
 * `Idempotent-Replayed: true`, when the inputs hash the same; 409 `idempotency_conflict`
 * otherwise.
 */
export function replayReceipt<R>(
  reply: FastifyReply,
  stored: OperationReceipt<R>,
  inputHash: string,
): FastifyReply {
  if (stored.inputHash !== inputHash)
    throw new ServiceError(
      'idempotency_conflict',
      'This Idempotency-Key was used with different input: use a new key for a new operation.',
    )
  return reply.status(200).header('idempotent-replayed', 'true').send(presentReceipt(stored))
}
