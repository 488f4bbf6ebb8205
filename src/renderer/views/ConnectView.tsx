import { useEffect, useState } from 'react'
import type { ToolScopeSummary } from '../../shared/appApi'
import type { ToolSummary } from '../../shared/toolSpec'
import { agentConfigs, oauthRegistrationCurl, toolCurl } from '../agentConfigs'
import { invoke } from '../api'
import { CopyBlock } from '../components/CopyBlock'
import { defaultsOf } from '../components/RunForm'
import { attempt, useAppStore } from '../stores/useAppStore'
import { ListTable } from '../components/ListTable'

const splitList = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter(Boolean)

function AgentKey({ onKey }: { onKey: (key: string) => void }) {
  const [label, setLabel] = useState('my-agent')
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault()
        void attempt(invoke('keys.create', { label: label.trim() || 'agent' })).then(
          (created) => created && onKey(created.key),
        )
      }}
    >
      <label className="field">
        <span className="field-name">Key label</span>
        <input
          data-testid="connect-key-label"
          maxLength={100}
          value={label}
          onChange={(e) => setLabel(e.target.value)}
        />
      </label>
      <button className="primary" type="submit" data-testid="connect-create-key">
        Create a key and fill it in below
      </button>
    </form>
  )
}

function Scopes() {
  const [scopes, setScopes] = useState<ToolScopeSummary[] | null>(null)
  const [slug, setSlug] = useState('')
  const [apps, setApps] = useState('')
  const [tools, setTools] = useState('')
  const load = async () => setScopes((await attempt(invoke('scopes.list', {}))) ?? [])
  useEffect(() => void load(), [])
  return (
    <>
      <p className="muted small">
        A scope lets a connection see only some sites (apps) and tools: connect the agent to{' '}
        <code>/mcp/&lt;scope&gt;</code> instead of <code>/mcp</code>.
      </p>
      <form
        className="row wrap"
        onSubmit={(e) => {
          e.preventDefault()
          void attempt(
            invoke('scopes.create', {
              slug: slug.trim(),
              apps: splitList(apps),
              tools: splitList(tools),
            }),
          ).then((made) => {
            if (!made) return
            setSlug('')
            setApps('')
            setTools('')
            void load()
          })
        }}
      >
        <label className="field">
          <span className="field-name">Scope name</span>
          <input
            data-testid="scope-slug"
            required
            pattern="[a-z0-9-]{1,40}"
            title="1 to 40 lowercase letters, digits or dashes"
            value={slug}
            onChange={(e) => setSlug(e.target.value)}
          />
        </label>
        <label className="field">
          <span className="field-name">Sites (hosts)</span>
          <input
            data-testid="scope-apps"
            placeholder="shop.example.com"
            value={apps}
            onChange={(e) => setApps(e.target.value)}
          />
        </label>
        <label className="field">
          <span className="field-name">Tools</span>
          <input
            placeholder="shop__get_orders"
            value={tools}
            onChange={(e) => setTools(e.target.value)}
          />
        </label>
        <button type="submit" data-testid="scope-create">
          Create scope
        </button>
      </form>
      {scopes && scopes.length > 0 && (
        <ListTable columns={['Scope', 'Sites', 'Tools', 'MCP endpoint', null]} testId="scope-list">
          {scopes.map((s) => (
            <tr key={s.slug} data-testid="scope-row">
              <td>{s.slug}</td>
              <td>{s.apps.join(', ') || '—'}</td>
              <td>{s.tools.join(', ') || '—'}</td>
              <td>
                <code>/mcp/{s.slug}</code>
              </td>
              <td>
                <button
                  className="danger"
                  data-testid="scope-delete"
                  aria-label={`Delete the scope ${s.slug}`}
                  onClick={() => {
                    // A connection using the scope gets 404 unknown_scope from then on.
                    if (
                      !window.confirm(
                        `Delete the scope ${s.slug}? Agents connected to /mcp/${s.slug} lose access.`,
                      )
                    )
                      return
                    void attempt(invoke('scopes.delete', { slug: s.slug })).then(load)
                  }}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </ListTable>
      )}
    </>
  )
}

function ToolCurl({ apiUrl, apiKey }: { apiUrl: string; apiKey: string | null }) {
  const [tools, setTools] = useState<ToolSummary[] | null>(null)
  const [id, setId] = useState('')
  useEffect(() => {
    void attempt(invoke('tools.list', {})).then((list) => {
      const verified = (list ?? []).filter((t) => t.status === 'verified')
      setTools(verified)
      setId(verified[0]?.id ?? '')
    })
  }, [])
  const tool = tools?.find((t) => t.id === id)
  if (tools?.length === 0)
    return (
      <p className="muted">
        No verified tool yet: <a href="#/record">record one</a>, then its call shows here.
      </p>
    )
  return (
    <>
      <label className="field">
        <span className="field-name">Tool</span>
        <select data-testid="connect-tool" value={id} onChange={(e) => setId(e.target.value)}>
          {(tools ?? []).map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} ({t.siteHost})
            </option>
          ))}
        </select>
      </label>
      {tool && (
        <CopyBlock
          label={`curl for ${tool.name}`}
          testId="connect-curl"
          text={toolCurl(apiUrl, apiKey, tool, defaultsOf(tool.inputs))}
        />
      )}
    </>
  )
}

/** Connect an agent: MCP configs, a tool's curl, OAuth, scopes, keys. */
export function ConnectView() {
  const apiUrl = useAppStore((s) => s.info?.apiUrl) ?? location.origin
  const stdio = useAppStore((s) => s.info?.mcpStdio) ?? null
  const [apiKey, setApiKey] = useState<string | null>(null)
  const [redirect, setRedirect] = useState('http://127.0.0.1:8976/callback')
  return (
    <>
      <h1>Connect an agent</h1>
      <p className="muted">
        Agents reach your verified tools over MCP at <code>{apiUrl}/mcp</code>, and programs over
        REST at <code>{apiUrl}/api/v1</code>. Each needs a key (or OAuth).
      </p>
      <section className="card">
        <h2>1. A key for the agent</h2>
        <AgentKey onKey={setApiKey} />
        {apiKey ? (
          <p className="banner banner-ok" role="status" data-testid="connect-key-ready">
            The key is filled into the configurations below. Copy them now: it is not shown again.
          </p>
        ) : (
          <p className="hint">
            Or keep <code>svc_live_…</code> and paste a key you made under <a href="#/keys">Keys</a>{' '}
            (where keys are also revoked).
          </p>
        )}
      </section>
      <section className="card">
        <h2>2. The agent’s MCP configuration</h2>
        {agentConfigs(apiUrl, apiKey, stdio).map((config) => (
          <div key={config.id} data-testid={`config-${config.id}`}>
            <h3>{config.client}</h3>
            <p className="hint">In {config.where}</p>
            <CopyBlock label={`${config.client} configuration`} text={config.text} />
          </div>
        ))}
        <p className="hint" data-testid="connect-stdio-note">
          The command configurations start <code>sitecall mcp</code> of this installation on this
          data folder. While this app runs they talk to it (the same tools, runs and approvals);
          when it is closed they run the tools themselves. Clients that take a URL need this app
          running.
        </p>
      </section>
      <section className="card">
        <h2>Call a tool from a program</h2>
        <ToolCurl apiUrl={apiUrl} apiKey={apiKey} />
      </section>
      <section className="card">
        <h2>OAuth for an app you write</h2>
        <p className="muted small">
          Register a public client, then use the authorization code flow with S256 PKCE; the person
          approves the scopes it asks for. Metadata:{' '}
          <code>{apiUrl}/.well-known/oauth-authorization-server</code>
        </p>
        <label className="field">
          <span className="field-name">Redirect URI</span>
          <input value={redirect} onChange={(e) => setRedirect(e.target.value)} />
        </label>
        <CopyBlock
          label="OAuth client registration"
          testId="connect-oauth"
          text={oauthRegistrationCurl(apiUrl, redirect)}
        />
      </section>
      <section className="card">
        <h2>Scopes</h2>
        <Scopes />
      </section>
    </>
  )
}
