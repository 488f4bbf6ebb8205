import { useEffect, useState } from 'react'
import type { UsageView as Usage } from '../../shared/appApi'
import { invoke } from '../api'
import { formatTime } from '../format'
import { attempt } from '../stores/useAppStore'
import { ListTable } from '../components/ListTable'

/** Credits and the ledger (spec "What the service does" 7). */
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
            <div className="card">
              <div className="stat">{usage.balance.toLocaleString()}</div>
              <div className="muted small">credits left</div>
            </div>
            <div className="card">
              <div className="stat">{usage.freeRemaining.toLocaleString()}</div>
              <div className="muted small">of the free {usage.freeGrant.toLocaleString()}</div>
            </div>
            <div className="card">
              <div className="stat">{usage.paidRemaining.toLocaleString()}</div>
              <div className="muted small">paid credits</div>
            </div>
            <div className="card">
              <div className="stat">{usage.charged.toLocaleString()}</div>
              <div className="muted small">charged so far</div>
            </div>
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
