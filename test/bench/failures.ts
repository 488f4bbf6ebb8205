/** Failed calls of one side: how many, and the first distinct reasons (enough to debug). */
export interface FailureTally {
  count: number
  reasons: Record<string, number>
}

const MAX_REASONS = 10

export const emptyTally = (): FailureTally => ({ count: 0, reasons: {} })

export function recordFailure(tally: FailureTally, reason: string): void {
  tally.count++
  if (reason in tally.reasons) tally.reasons[reason]!++
  else if (Object.keys(tally.reasons).length < MAX_REASONS) tally.reasons[reason] = 1
}
