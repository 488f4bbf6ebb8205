import { ServiceError } from '../../shared/errors'
import type { LedgerRepository } from '../store/ledgerRepository'

/** Credits one metered account-API request costs (interface.md "What the service does" 7). */
export const METERED_COST = 1

/**
 * Admits one metered request (search, index, compilation, execution; interface.md "What the service
 * does" 7): a repeat of an operation key already charged is free; otherwise the balance is
 * checked before anything is done (402 `quota_exceeded`, or `insufficient_paid_credits` when
 * only some paid credits are left). Returns the charge to make once the request is accepted:
 * accepted requests that fail or end uncertain still consume their credit.
 */
export function admitMetered(
  ledger: LedgerRepository,
  tenant: string,
  ref: string,
  reason: string,
  now: number,
): () => void {
  if (ledger.charged(tenant, ref)) return () => undefined
  const usage = ledger.usage(tenant, now)
  if (usage.balance < METERED_COST) {
    if (usage.paidRemaining > 0)
      throw new ServiceError(
        'insufficient_paid_credits',
        `This request costs ${METERED_COST} credit; ${usage.paidRemaining} paid credits are left.`,
      )
    throw new ServiceError(
      'quota_exceeded',
      'The free calls are used up and no paid credits are left: buy credits to go on.',
    )
  }
  return () => void ledger.charge(tenant, ref, METERED_COST, reason, now)
}
