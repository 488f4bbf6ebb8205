import { useEffect, useState } from 'react'
import type { ToolDetail } from '../../shared/appApi'
import type { ToolSpec } from '../../shared/toolSpec'
import { json } from '../format'
import type { Runner } from '../useRunner'
import { RunForm, defaultsOf, typeOf } from './RunForm'
import { RunView } from './RunView'
import { StatusBadge } from './StatusBadge'

export function callPath(tool: ToolSpec): string {
  return `/api/v1/sites/${tool.siteHost}/call/${tool.name}`
}

export function VerifiedNotice({ tool }: { tool: ToolSpec }) {
  return (
    <p className="banner banner-ok" data-testid="verified-notice">
      Verified — now callable as <code>POST {callPath(tool)}</code>
    </p>
  )
}

function Target({ detail }: { detail: ToolDetail }) {
  const { target, tool } = detail
  const request = target ?? tool.steps.at(-1)?.request
  if (!request) return <p className="muted">No target request.</p>
  return (
    <div className="target" data-testid="candidate-target">
      <span className="method">{request.method}</span>
      <code>{request.url}</code>
      {target && <span className="muted">→ {target.status}</span>}
    </div>
  )
}

function Evidence({ tool }: { tool: ToolSpec }) {
  const { signals, alternatives, score } = tool.evidence
  return (
    <>
      <h3>
        Why this request <span className="score">score {score.toFixed(2)}</span>
      </h3>
      <table>
        <tbody>
          {signals.map((s) => (
            <tr key={s.name}>
              <td className="nowrap">{s.name}</td>
              <td className="num">{s.weight.toFixed(2)}</td>
              <td>{s.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {alternatives.length > 0 && (
        <>
          <h3>Alternatives</h3>
          <table>
            <tbody>
              {alternatives.map((a) => (
                <tr key={a.exchangeId}>
                  <td className="nowrap">
                    <span className="method">{a.method}</span> <code>{a.url}</code>
                  </td>
                  <td className="num">{a.score.toFixed(2)}</td>
                  <td>{a.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  )
}

function Slots({ tool }: { tool: ToolSpec }) {
  const required = new Set(tool.inputs.required ?? [])
  return (
    <table>
      <thead>
        <tr>
          <th>Input</th>
          <th>Slot</th>
          <th>Type</th>
          <th>Default</th>
          <th>Required</th>
          <th>Goes to</th>
        </tr>
      </thead>
      <tbody>
        {Object.entries(tool.inputs.properties).map(([name, slot]) => (
          <tr key={name} data-testid="slot-row">
            <td>{name}</td>
            <td>
              <code>{slot['x-slot']}</code>
            </td>
            <td>{slot.enum ? `enum (${slot.enum.map(String).join(', ')})` : typeOf(slot)}</td>
            <td>
              <code>{slot.default === undefined ? '—' : JSON.stringify(slot.default)}</code>
            </td>
            <td>{required.has(name) ? 'yes' : 'no'}</td>
            <td>
              {slot['x-in']} <code>{slot['x-path']}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function VerifyRuleView({ tool }: { tool: ToolSpec }) {
  const { status, mimeType, required } = tool.verify
  return (
    <ul className="rule">
      <li>
        Status {status[0]}–{status[1]}, type <code>{mimeType}</code>
      </li>
      {required.map((r) => (
        <li key={r.path}>
          <code>{r.path}</code> is {r.type}
        </li>
      ))}
    </ul>
  )
}

interface Props {
  detail: ToolDetail
  runner: Runner
  /** Called once the verify run succeeded, to reload the tool (now `verified`). */
  onVerified(): void
}

/** What the compiler chose and why, and the first run that verifies it. */
export function CandidateReview({ detail, runner, onVerified }: Props) {
  const { tool } = detail
  const [values, setValues] = useState(() => defaultsOf(tool.inputs))
  const succeeded = runner.run?.status === 'succeeded'
  const stillCandidate = tool.status === 'candidate'
  // Keyed on the run, not on `onVerified`: reload once per successful run, not per render.
  const runId = runner.run?.runId
  useEffect(() => {
    if (succeeded && stillCandidate) onVerified()
  }, [succeeded, stillCandidate, runId])

  return (
    <section className="card" data-testid="candidate-review">
      <div className="card-head">
        <h2>{tool.name}</h2>
        <StatusBadge status={tool.status} />
      </div>
      <p>{tool.description}</p>
      <h3>Chosen request</h3>
      <Target detail={detail} />
      <Evidence tool={tool} />
      <h3>Inputs</h3>
      <Slots tool={tool} />
      <h3>Verify rule</h3>
      <VerifyRuleView tool={tool} />
      <details>
        <summary>Output schema</summary>
        <pre className="json">{json(tool.output)}</pre>
      </details>
      <h3>Verify</h3>
      {!succeeded && (
        <>
          <p className="muted">
            Runs the candidate once with these inputs (prefilled with what you recorded). It becomes
            a tool only if the answer meets the verify rule.
          </p>
          <RunForm
            schema={tool.inputs}
            values={values}
            onChange={setValues}
            onSubmit={(inputs) => void runner.start(tool.id, inputs)}
            busy={runner.busy}
            submitLabel="Verify"
            submitTestId="verify-button"
          />
        </>
      )}
      {succeeded && <VerifiedNotice tool={tool} />}
      {runner.run && <RunView run={runner.run} />}
    </section>
  )
}
