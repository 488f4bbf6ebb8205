import { useEffect } from 'react'
import { StatusBadge } from '../components/StatusBadge'
import { formatTime } from '../format'
import { toolHref } from '../route'
import { useToolsStore } from '../stores/useToolsStore'

export function ToolsView() {
  const list = useToolsStore((s) => s.list)
  const loadList = useToolsStore((s) => s.loadList)
  useEffect(() => void loadList(), [loadList])
  return (
    <>
      <h1>Tools</h1>
      {list?.length === 0 && (
        <p className="muted">
          No tools yet: <a href="#/record">record one</a>.
        </p>
      )}
      {list && list.length > 0 && (
        <div className="card flush">
          <table className="clickable">
            <thead>
              <tr>
                <th>Name</th>
                <th>Site</th>
                <th>Status</th>
                <th>Mutating</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>
              {list.map((t) => (
                <tr
                  key={t.id}
                  data-testid="tool-row"
                  onClick={() => (location.hash = toolHref(t.id))}
                >
                  <td>
                    <a href={toolHref(t.id)}>{t.name}</a>
                    <div className="muted small">{t.description}</div>
                  </td>
                  <td>{t.siteHost}</td>
                  <td>
                    <StatusBadge status={t.status} />
                  </td>
                  <td>{t.mutating ? 'yes' : 'no'}</td>
                  <td className="nowrap">{formatTime(t.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  )
}
