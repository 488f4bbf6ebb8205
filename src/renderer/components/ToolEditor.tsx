import { useEffect, useState } from 'react'
import { INPUT_TYPES, type InputType } from '../../shared/toolEdit'
import type { ToolSpec } from '../../shared/toolSpec'
import { useSecretsStore } from '../stores/useSecretsStore'
import { draftOf, editFromDraft, type ToolDraft } from '../toolDraft'
import { ListTable } from './ListTable'

interface Props {
  tool: ToolSpec
  busy: boolean
  onSave(edit: ReturnType<typeof editFromDraft>): void
  onCancel(): void
}

/**
 * The tool editor: name and description, inputs, the target request's headers
 * and body fields (each may be bound to a stored secret), the verify rule. Saving makes a new
 * version that must be verified again.
 */
export function ToolEditor({ tool, busy, onSave, onCancel }: Props) {
  const [draft, setDraft] = useState<ToolDraft>(() => draftOf(tool))
  const [problem, setProblem] = useState<string | null>(null)
  const secrets = useSecretsStore((s) => s.secrets)
  const loadSecrets = useSecretsStore((s) => s.load)
  useEffect(() => void loadSecrets(), [loadSecrets])
  const bound = (secrets ?? []).filter((s) =>
    s.hosts.some((h) => h === tool.siteHost || h === tool.siteHost.replace(/:\d+$/, '')),
  )
  const patch = (part: Partial<ToolDraft>) => setDraft({ ...draft, ...part })
  const setInput = (i: number, part: Partial<ToolDraft['inputs'][number]>) =>
    patch({ inputs: draft.inputs.map((input, j) => (j === i ? { ...input, ...part } : input)) })
  const setBody = (i: number, value: string) =>
    patch({ body: draft.body.map((f, j) => (j === i ? { ...f, value } : f)) })

  const save = (event: React.FormEvent) => {
    event.preventDefault()
    try {
      setProblem(null)
      onSave(editFromDraft(tool, draft))
    } catch (error) {
      setProblem((error as Error).message)
    }
  }

  return (
    <form className="card editor" data-testid="tool-editor" onSubmit={save}>
      <h2>Edit {tool.name}</h2>
      <p className="muted small">
        Saving makes a new version: a candidate again until a run verifies it.
      </p>
      <label className="field">
        <span className="field-name">Name</span>
        <input
          data-testid="edit-name"
          value={draft.name}
          pattern="[a-z0-9][a-z0-9_]*"
          title="lowercase letters, digits and _"
          onChange={(e) => patch({ name: e.target.value })}
        />
      </label>
      <label className="field">
        <span className="field-name">Description</span>
        <textarea
          data-testid="edit-description"
          rows={2}
          value={draft.description}
          onChange={(e) => patch({ description: e.target.value })}
        />
      </label>

      <InputsTable inputs={draft.inputs} setInput={setInput} />
      <HeadersTable
        headers={draft.headers}
        secrets={bound.map((secret) => secret.name)}
        setHeaders={(headers) => patch({ headers })}
      />
      <BodyFieldsTable fields={draft.body} setBody={setBody} />
      <VerifyRuleFields draft={draft} patch={patch} />

      {problem && (
        <p className="banner banner-error" role="alert">
          {problem}
        </p>
      )}
      <div className="row">
        <button className="primary" type="submit" data-testid="edit-save" disabled={busy}>
          Save as a new version
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}

type DraftInput = ToolDraft['inputs'][number]
type DraftHeader = ToolDraft['headers'][number]

/** The inputs' table: each slot's name, type, default, options and whether it is required. */
function InputsTable({
  inputs,
  setInput,
}: {
  inputs: DraftInput[]
  setInput(i: number, part: Partial<DraftInput>): void
}) {
  return (
    <>
      <h3>Inputs</h3>
      {inputs.length === 0 && <p className="muted">This tool takes no inputs.</p>}
      {inputs.length > 0 && (
        <ListTable
          columns={['Slot', 'Name', 'Type', 'Default', 'Options (comma-separated)', 'Required']}
          className="edit-table"
        >
          {inputs.map((input, i) => (
            <tr key={input.slot} data-testid="edit-input">
              <td>
                <code>{input.slot}</code>
              </td>
              <td>
                <input
                  aria-label={`Name of input ${input.slot}`}
                  data-testid="edit-input-name"
                  value={input.name}
                  onChange={(e) => setInput(i, { name: e.target.value })}
                />
              </td>
              <td>
                <select
                  aria-label={`Type of input ${input.slot}`}
                  value={input.type}
                  onChange={(e) => setInput(i, { type: e.target.value as InputType })}
                >
                  {INPUT_TYPES.map((t) => (
                    <option key={t}>{t}</option>
                  ))}
                </select>
              </td>
              <td>
                <input
                  aria-label={`Default of input ${input.slot}`}
                  data-testid="edit-input-default"
                  value={input.default}
                  onChange={(e) => setInput(i, { default: e.target.value })}
                />
              </td>
              <td>
                <input
                  aria-label={`Options of input ${input.slot}`}
                  value={input.options}
                  onChange={(e) => setInput(i, { options: e.target.value })}
                />
              </td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Input ${input.slot} is required`}
                  checked={input.required}
                  onChange={(e) => setInput(i, { required: e.target.checked })}
                />
              </td>
            </tr>
          ))}
        </ListTable>
      )}
    </>
  )
}

/** The target request's headers; a value may name a stored secret of the tool's site. */
function HeadersTable({
  headers,
  secrets,
  setHeaders,
}: {
  headers: DraftHeader[]
  /** Names of the stored secrets bound to the tool's site. */
  secrets: string[]
  setHeaders(headers: DraftHeader[]): void
}) {
  const setHeader = (i: number, part: Partial<DraftHeader>) =>
    setHeaders(headers.map((h, j) => (j === i ? { ...h, ...part } : h)))
  return (
    <>
      <h3>Headers</h3>
      <p className="hint">
        A value may name a stored secret: <code>{'{{secret:NAME}}'}</code>
        {secrets.length > 0 ? ' (pick one from the list).' : '; store one under Secrets first.'}
      </p>
      <datalist id="secret-placeholders">
        {secrets.map((name) => (
          <option key={name} value={`{{secret:${name}}}`} />
        ))}
      </datalist>
      <table className="edit-table">
        <tbody>
          {headers.map((header, i) => (
            <tr key={i} data-testid="edit-header">
              <td>
                <input
                  aria-label="Header name"
                  value={header.name}
                  onChange={(e) => setHeader(i, { name: e.target.value })}
                />
              </td>
              <td className="wide">
                <input
                  aria-label={`Value of header ${header.name || i + 1}`}
                  list="secret-placeholders"
                  value={header.value}
                  onChange={(e) => setHeader(i, { value: e.target.value })}
                />
              </td>
              <td>
                <button
                  type="button"
                  className="link danger-text"
                  onClick={() => setHeaders(headers.filter((_, j) => j !== i))}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button
        type="button"
        data-testid="edit-add-header"
        onClick={() => setHeaders([...headers, { name: '', value: '' }])}
      >
        Add header
      </button>
    </>
  )
}

/** The target request's body fields, each value editable (or a secret placeholder). */
function BodyFieldsTable({
  fields,
  setBody,
}: {
  fields: ToolDraft['body']
  setBody(i: number, value: string): void
}) {
  return (
    <>
      {fields.length > 0 && (
        <>
          <h3>Body fields</h3>
          <table className="edit-table">
            <tbody>
              {fields.map((field, i) => (
                <tr key={field.path} data-testid="edit-body-field">
                  <td>
                    <code>{field.path}</code>
                  </td>
                  <td className="wide">
                    <input
                      aria-label={`Value of body field ${field.path}`}
                      list="secret-placeholders"
                      value={field.value}
                      onChange={(e) => setBody(i, e.target.value)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  )
}

/** The verify rule: the status range and the fields the answer must have. */
function VerifyRuleFields({
  draft,
  patch,
}: {
  draft: ToolDraft
  patch(part: Partial<ToolDraft>): void
}) {
  return (
    <>
      <h3>Verify rule</h3>
      <div className="row">
        <label className="field">
          <span className="field-name">Status from</span>
          <input
            data-testid="edit-status-from"
            inputMode="numeric"
            value={draft.statusFrom}
            onChange={(e) => patch({ statusFrom: e.target.value })}
          />
        </label>
        <label className="field">
          <span className="field-name">to</span>
          <input
            inputMode="numeric"
            value={draft.statusTo}
            onChange={(e) => patch({ statusTo: e.target.value })}
          />
        </label>
      </div>
      <label className="field">
        <span className="field-name">Fields the answer must have (one “path: type” a line)</span>
        <textarea
          data-testid="edit-required"
          rows={Math.min(8, Math.max(2, draft.required.split('\n').length))}
          value={draft.required}
          onChange={(e) => patch({ required: e.target.value })}
        />
      </label>
    </>
  )
}
