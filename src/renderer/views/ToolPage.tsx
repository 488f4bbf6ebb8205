import { useEffect, useState } from 'react'
import type { ToolDetail } from '../../shared/appApi'
import { FINAL_RUN_STATUSES } from '../../shared/run'
import type { ToolSpec } from '../../shared/toolSpec'
import { toolCurl } from '../agentConfigs'
import { CandidateReview, VerifiedNotice } from '../components/CandidateReview'
import { RunForm, cleanInputs, defaultsOf, type Values } from '../components/RunForm'
import { RunView } from '../components/RunView'
import { NeedsBox } from '../components/NeedsBox'
import { ReplaceOffer } from '../components/ReplaceOffer'
import { StatusBadge } from '../components/StatusBadge'
import { ToolEditor } from '../components/ToolEditor'
import { formatTime } from '../format'
import { toolHref } from '../route'
import { useAppStore } from '../stores/useAppStore'
import { useToolsStore } from '../stores/useToolsStore'
import { useRunner } from '../useRunner'
import { ListTable } from '../components/ListTable'

function CurlExample({ tool, inputs }: { tool: ToolSpec; inputs: Values }) {
  const apiUrl = useAppStore((s) => s.info?.apiUrl) ?? location.origin
  const curl = toolCurl(apiUrl, null, tool, inputs)
  return (
    <>
      <h3>Call it from a program</h3>
      <pre className="code" data-testid="curl-example">
        {curl}
      </pre>
      <p className="muted small">
        Create a key under <a href="#/keys">Keys</a> and put it in place of <code>svc_live_…</code>,
        or see <a href="#/connect">Connect</a> for agents.
      </p>
    </>
  )
}

function RecentRuns({ onShow }: { onShow: (runId: string) => void }) {
  const runs = useToolsStore((s) => s.runs)
  if (runs.length === 0) return <p className="muted">No runs yet.</p>
  return (
    <>
      <p className="muted small">Click a run to show its result above.</p>
      <ListTable columns={['Status', 'Run', 'Error', 'Started']} className="clickable">
        {runs.map((r) => (
          <tr key={r.runId} onClick={() => onShow(r.runId)}>
            <td>
              <StatusBadge status={r.status} />
            </td>
            <td>
              {/* A button, so the row is reachable and opened by keyboard too. */}
              <button className="link row-button" onClick={() => onShow(r.runId)}>
                <code>{r.runId}</code>
              </button>
            </td>
            <td className="muted">{r.error?.code}</td>
            <td className="nowrap muted">{formatTime(r.createdAt)}</td>
          </tr>
        ))}
      </ListTable>
    </>
  )
}

function ToolBody({ detail }: { detail: ToolDetail }) {
  const { tool } = detail
  const { loadTool, loadRuns, remove, update } = useToolsStore()
  const [editing, setEditing] = useState(false)
  const [saving, setSaving] = useState(false)
  const [saved, setSaved] = useState<string | null>(null)
  const runs = useToolsStore((s) => s.runs)
  const runner = useRunner()
  const [values, setValues] = useState(() => defaultsOf(tool.inputs))
  const [justVerified, setJustVerified] = useState(false)
  const finished = runner.run && FINAL_RUN_STATUSES.includes(runner.run.status)
  useEffect(() => void loadRuns(tool.id), [loadRuns, tool.id, finished])

  return (
    <>
      <div className="row">
        <h1>{tool.name}</h1>
        <StatusBadge status={tool.status} />
        {tool.mutating && <span className="badge badge-amber">mutating</span>}
        <span className="spacer" />
        {!editing && (
          <button data-testid="edit-button" onClick={() => setEditing(true)}>
            Edit
          </button>
        )}
        <button
          className="link danger-text"
          onClick={() => {
            if (confirm(`Delete ${tool.name}?`))
              void remove(tool.id).then((ok) => ok && (location.hash = '#/tools'))
          }}
        >
          Delete
        </button>
      </div>
      <p>{tool.description}</p>
      <p className="muted">
        Intent: “{tool.intent}” · {tool.siteHost} · via {tool.via} · v{tool.version}
      </p>
      {saved && (
        <p className="banner banner-ok" data-testid="edit-saved" role="status">
          Saved version {saved}. Verify it below before programs can call it again.
        </p>
      )}
      <ReplaceOffer
        detail={detail}
        onReplaced={(next) => useToolsStore.setState({ detail: next, list: null })}
      />
      {editing ? (
        <ToolEditor
          tool={tool}
          busy={saving}
          onCancel={() => setEditing(false)}
          onSave={(edit) => {
            setSaving(true)
            void update(tool.id, edit).then((ok) => {
              setSaving(false)
              if (!ok) return
              setEditing(false)
              runner.show(null)
              setSaved(useToolsStore.getState().detail?.tool.version ?? null)
            })
          }}
        />
      ) : tool.status === 'candidate' ? (
        <CandidateReview
          key={tool.version}
          detail={detail}
          runner={runner}
          onVerified={() => {
            setJustVerified(true)
            void loadTool(tool.id)
          }}
          onReplaced={(candidate) => (location.hash = toolHref(candidate.id))}
        />
      ) : (
        <section className="card">
          {justVerified && <VerifiedNotice tool={tool} />}
          <h2>Run</h2>
          <NeedsBox toolId={tool.id} />
          <RunForm
            tool={tool}
            runner={runner}
            values={values}
            onChange={setValues}
            submitLabel="Run"
            submitTestId="run-button"
          />
          {runner.run && <RunView run={runner.run} />}
          <CurlExample tool={tool} inputs={cleanInputs(tool.inputs, values)} />
        </section>
      )}
      <section className="card">
        <h2>Recent runs</h2>
        <RecentRuns
          onShow={(id) => {
            const run = runs.find((r) => r.runId === id)
            if (run) runner.show(run)
          }}
        />
      </section>
    </>
  )
}

export function ToolPage({ id }: { id: string }) {
  const detail = useToolsStore((s) => s.detail)
  const loadTool = useToolsStore((s) => s.loadTool)
  useEffect(() => void loadTool(id), [loadTool, id])
  const failed = useToolsStore((s) => s.failedId === id)
  if (detail?.tool.id === id) return <ToolBody key={id} detail={detail} />
  if (!failed) return <p className="muted">Loading…</p>
  return (
    <p className="muted">
      This tool could not be loaded. <a href="#/tools">Back to Tools</a>
    </p>
  )
}
