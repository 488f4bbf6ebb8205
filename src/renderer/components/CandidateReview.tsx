import { useEffect, useState } from 'react'
import type { ToolDetail } from '../../shared/appApi'
import type { JsonSchema, ToolSpec, VerifyRule } from '../../shared/toolSpec'
import { json } from '../format'
import type { Runner } from '../useRunner'
import { Alternatives, ReplacedNotice } from './Alternatives'
import { RunForm, defaultsOf, typeOf } from './RunForm'
import { NeedsBox } from './NeedsBox'
import { RunView } from './RunView'
import { StatusBadge } from './StatusBadge'
import { ListTable } from './ListTable'

/** The surface-A path that calls `tool` (interface.md "A. Site tool calls"). */
function callPath(tool: ToolSpec): string {
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
  const body = target?.requestBody?.encoding === 'utf8' ? target.requestBody.text : null
  return (
    <div className="target" data-testid="candidate-target">
      <div className="row">
        <span className="method">{request.method}</span>
        <code>{request.url}</code>
        {target && <span className="muted">→ {target.status}</span>}
      </div>
      {body && (
        <code className="target-body" title={body}>
          {body}
        </code>
      )}
    </div>
  )
}

function Evidence({ tool }: { tool: ToolSpec }) {
  const { signals, score } = tool.evidence
  const confidence = tool.evidence.confidence ?? score
  return (
    <>
      <h3>
        Why this request <span className="score">score {score.toFixed(2)}</span>{' '}
        <span className="score" data-testid="candidate-confidence">
          confidence {Math.round(confidence * 100)}%
        </span>
      </h3>
      {confidence < 0.5 && (
        <p className="hint" role="note">
          Low confidence: check the alternatives below, and use another request if it fits the
          intent better.
        </p>
      )}
      <table className="kv" data-testid="evidence-signals">
        <tbody>
          {signals.map((s) => (
            <tr key={s.name}>
              <td>{s.name.replaceAll('_', ' ')}</td>
              <td className="num">{s.weight.toFixed(2)}</td>
              <td>{s.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  )
}

function Slots({ tool }: { tool: ToolSpec }) {
  const required = new Set(tool.inputs.required ?? [])
  // No header row over nothing: the run form below says the tool takes no inputs.
  if (Object.keys(tool.inputs.properties).length === 0)
    return (
      <p className="muted" data-testid="no-inputs">
        None: the request is sent as recorded.
      </p>
    )
  return (
    <ListTable columns={['Input', 'Slot', 'Type', 'Default', 'Required', 'Goes to']}>
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
    </ListTable>
  )
}

/** Field checks shown before the rest fold away: a long record list would bury the form below. */
const RULES_SHOWN = 5

function VerifyRuleView({ tool }: { tool: ToolSpec }) {
  const { status, mimeType, required } = tool.verify
  const item = (r: VerifyRule['required'][number]) => (
    <li key={r.path}>
      <code>{r.path}</code> is {r.type}
    </li>
  )
  const rest = required.slice(RULES_SHOWN)
  return (
    <div data-testid="verify-rule">
      <p className="muted small">A run succeeds only when the answer meets all of these.</p>
      <ul className="rule">
        <li>
          Status {status[0]}–{status[1]}, type <code>{mimeType}</code>
        </li>
        {required.slice(0, RULES_SHOWN).map(item)}
      </ul>
      {rest.length > 0 && (
        <details className="tight">
          <summary>{rest.length} more field checks</summary>
          <ul className="rule">{rest.map(item)}</ul>
        </details>
      )}
    </div>
  )
}

/** `list of object (40 fields)`, `integer`, `string | null`: a schema in a few words. */
function describeSchema(schema: JsonSchema): string {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any']
  const type = types.filter((t) => t !== 'null').join(' | ') || 'null'
  const nullable = types.length > 1 && types.includes('null') ? ' or null' : ''
  if (type === 'array' && schema.items) return `list of ${describeSchema(schema.items)}${nullable}`
  if (type === 'object' && schema.properties)
    return `object (${Object.keys(schema.properties).length} fields)${nullable}`
  return `${type}${nullable}`
}

function OutputView({ tool }: { tool: ToolSpec }) {
  const fields = Object.entries(tool.output.properties ?? {})
  return (
    <div data-testid="output-schema">
      {fields.length === 0 ? (
        <p>{describeSchema(tool.output)}</p>
      ) : (
        <table className="kv">
          <tbody>
            {fields.map(([name, schema]) => (
              <tr key={name}>
                <td>
                  <code>{name}</code>
                </td>
                <td>{describeSchema(schema)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <details className="tight">
        <summary>Full JSON Schema</summary>
        <pre className="json">{json(tool.output)}</pre>
      </details>
    </div>
  )
}

interface Props {
  detail: ToolDetail
  runner: Runner
  /** Called once the verify run succeeded, to reload the tool (now `verified`). */
  onVerified(): void
  /** Shows the candidate compiled from an alternative ("use this request instead"). */
  onReplaced(candidate: ToolSpec): void
}

/** What the compiler chose and why, and the first run that verifies it. */
export function CandidateReview({ detail, runner, onVerified, onReplaced }: Props) {
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
      <ReplacedNotice tool={tool} />
      <p>{tool.description}</p>
      <h3>Chosen request</h3>
      <Target detail={detail} />
      <Evidence tool={tool} />
      <Alternatives tool={tool} onReplaced={onReplaced} />
      <h3>Inputs</h3>
      <Slots tool={tool} />
      <h3>Output</h3>
      <OutputView tool={tool} />
      <h3>Verify rule</h3>
      <VerifyRuleView tool={tool} />
      <h3>Verify</h3>
      {!succeeded && (
        <>
          <NeedsBox toolId={tool.id} />
          <p className="muted">
            Runs the candidate once with these inputs (prefilled with what you recorded). It becomes
            a tool only if the answer meets the verify rule.
          </p>
          <RunForm
            tool={tool}
            runner={runner}
            values={values}
            onChange={setValues}
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
