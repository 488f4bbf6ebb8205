import { useEffect, useState } from 'react'
import type { ToolSearchMatch } from '../../shared/appApi'
import type { ToolSummary } from '../../shared/toolSpec'
import { invoke } from '../api'
import { StatusBadge } from '../components/StatusBadge'
import { formatTime } from '../format'
import { toolHref } from '../route'
import { attempt } from '../stores/useAppStore'
import { useToolsStore } from '../stores/useToolsStore'
import { ListTable } from '../components/ListTable'

/** Tools grouped by site, sites in name order, each site's tools as listed. */
function groupBySite<T extends { siteHost: string }>(tools: T[]): Array<[string, T[]]> {
  const groups = new Map<string, T[]>()
  for (const tool of tools) groups.set(tool.siteHost, [...(groups.get(tool.siteHost) ?? []), tool])
  return [...groups].sort(([a], [b]) => a.localeCompare(b))
}

function IntentSearch() {
  const [intent, setIntent] = useState('')
  const [answer, setAnswer] = useState<{
    status: string
    matches: ToolSearchMatch[]
    reason: string | null
  } | null>(null)
  return (
    <section className="card" aria-label="Find a tool by intent">
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault()
          void attempt(invoke('tools.search', { intent: intent.trim() })).then(
            (found) => found && setAnswer(found),
          )
        }}
      >
        <label className="field grow">
          <span className="field-name">Find a tool by what it should do</span>
          <input
            data-testid="tool-search"
            type="search"
            required
            placeholder="e.g. find an order by its item"
            value={intent}
            onChange={(e) => setIntent(e.target.value)}
          />
        </label>
        <button type="submit" data-testid="tool-search-submit">
          Search
        </button>
      </form>
      {answer && answer.matches.length === 0 && (
        <p className="muted" data-testid="tool-search-none">
          No tool fits that well enough ({answer.status.replaceAll('_', ' ')}
          {answer.reason ? `: ${answer.reason}` : ''}). <a href="#/record">Record it</a>.
        </p>
      )}
      {answer && answer.matches.length > 0 && (
        <ol className="matches" data-testid="tool-search-results">
          {answer.matches.map((m) => (
            <li key={m.id} data-testid="tool-match">
              <a href={toolHref(m.id)}>{m.name}</a>{' '}
              <span className="score">score {m.score.toFixed(2)}</span>{' '}
              <StatusBadge status={m.status} /> <span className="muted small">{m.siteHost}</span>
              <div className="muted small">{m.description}</div>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

function SiteTools({ site, tools }: { site: string; tools: ToolSummary[] }) {
  return (
    <section className="card flush" aria-label={`Tools of ${site}`} data-testid="tool-site">
      <h2 className="pad">{site}</h2>
      <ListTable columns={['Name', 'Status', 'Mutating', 'Updated']}>
        {tools.map((t) => (
          <tr key={t.id} data-testid="tool-row">
            <td>
              <a href={toolHref(t.id)}>{t.name}</a>
              <div className="muted small">{t.description}</div>
            </td>
            <td>
              <StatusBadge status={t.status} />
            </td>
            <td>{t.mutating ? 'yes' : 'no'}</td>
            <td className="nowrap">{formatTime(t.updatedAt)}</td>
          </tr>
        ))}
      </ListTable>
    </section>
  )
}

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
        <>
          <IntentSearch />
          {groupBySite(list).map(([site, tools]) => (
            <SiteTools key={site} site={site} tools={tools} />
          ))}
        </>
      )}
    </>
  )
}
