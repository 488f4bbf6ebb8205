import type { ToolDetail } from '../../shared/appApi'
import { invoke } from '../api'
import { attempt } from '../stores/useAppStore'

/**
 * A new candidate that records an earlier tool's workflow again: offers to put
 * it in that tool's place, keeping the name callers use, instead of adding `_2`.
 */
export function ReplaceOffer({
  detail,
  onReplaced,
}: {
  detail: ToolDetail
  onReplaced: (next: ToolDetail) => void
}) {
  const earlier = detail.replaces
  if (!earlier) return null
  return (
    <div className="banner banner-info" data-testid="replace-offer" role="note">
      <span>
        This records the workflow of <strong>{earlier.name}</strong> ({earlier.status}) again.
        Replace it, keeping its name, instead of adding {detail.tool.name}?
      </span>
      <button
        data-testid="replace-button"
        onClick={() =>
          void attempt(invoke('tools.replace', { id: detail.tool.id, replaces: earlier.id })).then(
            (next) => next && onReplaced(next),
          )
        }
      >
        Replace {earlier.name}
      </button>
    </div>
  )
}
