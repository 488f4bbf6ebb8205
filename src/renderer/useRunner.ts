import { useEffect, useState } from 'react'
import type { Run } from '../shared/run'
import { invoke, on } from './api'
import { attempt } from './stores/useAppStore'

export interface Runner {
  run: Run | null
  busy: boolean
  start(toolId: string, inputs: Record<string, unknown>): Promise<void>
  /** Shows `run` as the form's run; null clears it (a new version of the tool was saved). */
  show(run: Run | null): void
}

/** One run at a time for a form: starts it and follows its `runs.updated` events. */
export function useRunner(): Runner {
  const [run, setRun] = useState<Run | null>(null)
  const [busy, setBusy] = useState(false)
  useEffect(
    () =>
      on('runs.updated', ({ run: next }) =>
        setRun((cur) =>
          cur?.runId === next.runId && next.stateRevision >= cur.stateRevision ? next : cur,
        ),
      ),
    [],
  )
  return {
    run,
    busy,
    show: setRun,
    async start(id, inputs) {
      setBusy(true)
      const started = await attempt(invoke('tools.run', { id, inputs }))
      setBusy(false)
      if (started) setRun(started)
    },
  }
}
