import { useEffect, useState } from 'react'
import type { UsageView as Usage } from '../../shared/appApi'
import { invoke } from '../api'
import { formatTime } from '../format'
import { attempt } from '../stores/useAppStore'
import { ListTable } from '../components/ListTable'

function Stat({ value, label }: { value: number; label: string }) {
  return (
    <div className="card">
      <div className="stat">{value.toLocaleString()}</div>
      <div className="muted small">{label}</div>
    </div>
  )
}

/** Credits and the ledger (interface.md "What the service does" 7). */
export function UsageView() {
  const [usage, setUsage] = useState<Usage | null>(null)
  useEffect(() => void attempt(invoke('usage.get', {})).then((u) => u && setUsage(u)), [])
  return (
    <>
      <h1>Usage</h1>
      <p className="muted">
        Programs pay one credit per admitted search, indexing, compilation or execution, and a site
        tool call only when its run is verified. What you do in this app costs nothing.
      </p>
      {usage && (
        <>
          <div className="stats" data-testid="usage-stats">
            <Stat value={usage.balance} label="credits left" />
            <Stat
              value={usage.freeRemaining}
              label={`of the free ${usage.freeGrant.toLocaleString()}`}
            />
            <Stat value={usage.paidRemaining} label="paid credits" />
            <Stat value={usage.charged} label="charged so far" />
          </div>
          <h2>Ledger</h2>
          <div className="card flush">
            <ListTable columns={['When', 'Kind', 'Credits', 'For']} testId="ledger">
              {usage.ledger.map((e) => (
                <tr key={`${e.kind}:${e.ref}`} data-testid="ledger-row">
                  <td className="nowrap">{formatTime(e.at)}</td>
                  <td>{e.kind}</td>
                  <td className="num">{e.amount > 0 ? `+${e.amount}` : e.amount}</td>
                  <td>
                    {e.reason} <code className="muted">{e.ref}</code>
                  </td>
                </tr>
              ))}
            </ListTable>
          </div>
        </>
      )}
    </>
  )
}
