import { useState } from 'react'
import type { InboxRequirement, RequirementAnswer } from '../../shared/appApi'
import type { ErrorBody } from '../../shared/errors'
import { json } from '../format'

interface Props {
  requirement: InboxRequirement
  /** True while an answer is on its way or the requirement's time is up. */
  disabled: boolean
  /** Other requirements of the run still open: an approval waits for them, to show the full request. */
  othersOpen: number
  failure: ErrorBody | undefined
  onAnswer(answer: RequirementAnswer): void
}

/** The exact request an approval lets the run send (method, URL and body, as sent). */
function RequestPreview({ request }: { request: NonNullable<InboxRequirement['request']> }) {
  const body = request.body
  return (
    <div className="request-preview" data-testid="approval-request">
      <div className="row">
        <span className="method" data-testid="approval-method">
          {request.method}
        </span>
        <code className="request-url" data-testid="approval-url">
          {request.url}
        </code>
      </div>
      {body === null || body === undefined ? (
        <p className="hint">No body.</p>
      ) : (
        <pre className="json" data-testid="approval-body">
          {typeof body === 'string' ? body : json(body)}
        </pre>
      )}
    </div>
  )
}

function Approval({ requirement, disabled, othersOpen, onAnswer }: Props) {
  const id = requirement.id
  return (
    <>
      {requirement.request && <RequestPreview request={requirement.request} />}
      {othersOpen > 0 && (
        <p className="hint" data-testid="approval-waits">
          Answer the {othersOpen === 1 ? 'requirement' : `${othersOpen} requirements`} above first:
          the request fills in with your answers, and you approve it as it will be sent.
        </p>
      )}
      <div className="row">
        <button
          className="primary"
          data-testid="approve"
          disabled={disabled || othersOpen > 0}
          onClick={() => onAnswer({ requirementId: id, approve: true })}
        >
          Approve and send
        </button>
        <button
          className="danger-outline"
          data-testid="decline"
          disabled={disabled}
          onClick={() => onAnswer({ requirementId: id, approve: false })}
        >
          Decline
        </button>
        <span className="hint">Declining sends nothing and ends the run.</span>
      </div>
    </>
  )
}

function Choice({ requirement, disabled, onAnswer }: Props) {
  const [picked, setPicked] = useState<string | null>(null)
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        if (picked) onAnswer({ requirementId: requirement.id, optionId: picked })
      }}
    >
      <fieldset className="options" disabled={disabled}>
        <legend className="field-name">
          {requirement.slot} <span className="type">one of {requirement.options?.length}</span>
        </legend>
        {requirement.options?.map((o) => (
          <label key={o.id} className="option">
            <input
              type="radio"
              name={requirement.id}
              value={o.id}
              checked={picked === o.id}
              onChange={() => setPicked(o.id)}
            />
            {o.label}
          </label>
        ))}
      </fieldset>
      <button className="primary" type="submit" data-testid="choose" disabled={disabled || !picked}>
        Choose and continue
      </button>
    </form>
  )
}

/** The input that fits the slot's declared type; numbers are sent as numbers. */
function Value({ requirement, disabled, onAnswer }: Props) {
  const [text, setText] = useState('')
  const type = requirement.slotSchema?.type ?? 'string'
  const numeric = type === 'integer' || type === 'number'
  const toValue = (): unknown => {
    if (numeric) return Number(text)
    if (type === 'boolean') return text === 'true'
    return text
  }
  return (
    <form
      className="value-form"
      onSubmit={(e) => {
        e.preventDefault()
        onAnswer({ requirementId: requirement.id, value: toValue() })
      }}
    >
      <label className="field">
        <span className="field-name">
          {requirement.slot}{' '}
          <span className="type" data-testid="slot-type">
            {type}
            {requirement.slotSchema?.format ? ` (${requirement.slotSchema.format})` : ''}
          </span>
        </span>
        {type === 'boolean' ? (
          <select
            data-testid="value-input"
            required
            value={text}
            disabled={disabled}
            onChange={(e) => setText(e.target.value)}
          >
            <option value="" disabled>
              Choose…
            </option>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        ) : (
          <input
            data-testid="value-input"
            required
            type={numeric ? 'number' : 'text'}
            step={type === 'integer' ? 1 : 'any'}
            value={text}
            disabled={disabled}
            onChange={(e) => setText(e.target.value)}
          />
        )}
        {requirement.slotSchema?.description && (
          <span className="hint">{requirement.slotSchema.description}</span>
        )}
      </label>
      <button className="primary" type="submit" data-testid="enter" disabled={disabled}>
        Enter and continue
      </button>
    </form>
  )
}

const KIND_LABEL = { approval: 'Approval', choice: 'Choice', value: 'Value' } as const

/** One requirement of a waiting run, with the control that answers it. */
export function RequirementForm(props: Props) {
  const { requirement, failure } = props
  return (
    <section className="requirement" data-testid={`requirement-${requirement.kind}`}>
      <div className="row">
        <span className="badge badge-grey">{KIND_LABEL[requirement.kind]}</span>
        <span>{requirement.message}</span>
      </div>
      {requirement.kind === 'approval' && <Approval {...props} />}
      {requirement.kind === 'choice' && <Choice {...props} />}
      {requirement.kind === 'value' && <Value {...props} />}
      {failure && (
        <p className="run-error" data-testid="requirement-error">
          <code>{failure.code}</code> {failure.message}
        </p>
      )}
    </section>
  )
}
