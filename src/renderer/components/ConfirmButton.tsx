import { useState } from 'react'

interface ConfirmButtonProps {
  /** What the act is called: the first button says `label…`, the one that does it `label`. */
  label: string
  /** The first button's test id; the one that does it has `<testId>-confirm`. */
  testId: string
  onConfirm(): void
}

/**
 * A button for an act that cannot be undone (delete, forget): the first click only asks, with
 * the act and Keep side by side; the act runs on the second button.
 */
export function ConfirmButton({ label, testId, onConfirm }: ConfirmButtonProps) {
  const [confirming, setConfirming] = useState(false)
  if (!confirming)
    return (
      <button data-testid={testId} onClick={() => setConfirming(true)}>
        {label}…
      </button>
    )
  return (
    <>
      <button className="danger" data-testid={`${testId}-confirm`} onClick={onConfirm}>
        {label}
      </button>
      <button onClick={() => setConfirming(false)}>Keep</button>
    </>
  )
}
