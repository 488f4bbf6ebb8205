const TONES: Record<string, string> = {
  candidate: 'amber',
  input_required: 'amber',
  outcome_unknown: 'amber',
  verified: 'green',
  succeeded: 'green',
  failed: 'red',
  quarantined: 'red',
  accepted: 'blue',
  working: 'blue',
}

/** A run or tool status as a coloured pill; the text is the status itself. */
export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  return (
    <span className={`badge badge-${TONES[status] ?? 'grey'}`} data-testid={testId}>
      {status}
    </span>
  )
}
