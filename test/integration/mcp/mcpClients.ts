import { createServer, type IncomingMessage, type Server } from 'node:http'
import { randomUUID } from 'node:crypto'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js'
import type { Run } from '../../../src/shared/run'
import type { JsonSchema, ToolSpec } from '../../../src/shared/toolSpec'

export interface ConnectOptions {
  key: string
  /** Path and query below the base, default `/mcp`. */
  path?: string
  capabilities?: ClientCapabilities
}

/** The official SDK client over Streamable HTTP, connected (initialize done) with a bearer key. */
export async function connectHttp(base: string, options: ConnectOptions): Promise<Client> {
  const client = new Client(
    { name: 'sitecall-test', version: '1.0.0' },
    { capabilities: options.capabilities ?? {} },
  )
  const transport = new StreamableHTTPClientTransport(new URL(`${base}${options.path ?? '/mcp'}`), {
    requestInit: { headers: { authorization: `Bearer ${options.key}` } },
  })
  await client.connect(transport)
  return client
}

/** What the notes site saw: each `POST /api/notes` body. */
export interface NotesSite {
  url: string
  host: string
  posts: unknown[]
  close(): Promise<void>
}

/**
 * A tiny site with one write: `POST /api/notes {text}` answers 201 `{note: {id, text}}`. Used
 * for a mutating tool, whose calls wait on an approval first.
 */
export async function startNotesSite(): Promise<NotesSite> {
  const posts: unknown[] = []
  const server: Server = createServer((req, res) => {
    void readBody(req).then((text) => {
      if (req.method !== 'POST' || req.url !== '/api/notes') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}')
        return
      }
      const body = JSON.parse(text || '{}') as { text?: string }
      posts.push(body)
      res
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ note: { id: `note_${posts.length}`, text: body.text ?? '' } }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    posts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
  })
}

/** The notes site's write as a verified, mutating ToolSpec (as the compiler would emit it). */
export function addNoteTool(site: NotesSite): ToolSpec {
  const now = Date.now()
  return {
    id: randomUUID(),
    siteHost: site.host,
    name: 'local__post_notes',
    capabilityId: `${site.host}/local__post_notes`,
    intent: 'add a note',
    description: 'Adds a note',
    version: '2026.1.1',
    mutating: true,
    status: 'verified',
    inputs: {
      type: 'object',
      properties: {
        text: { type: 'string', 'x-slot': 'p0', 'x-in': 'body', 'x-path': 'text' },
      },
      required: ['text'],
    },
    steps: [
      {
        id: 'target',
        request: {
          method: 'POST',
          url: `${site.url}/api/notes`,
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: { kind: 'json', template: { text: '{{input.p0}}' } },
        },
        extract: [],
      },
    ],
    output: { type: 'object' } as JsonSchema,
    verify: {
      status: [200, 299],
      mimeType: 'application/json',
      required: [{ path: 'note.id', type: 'string' }],
    },
    via: 'http',
    evidence: {
      traceId: 'trc_handwritten',
      targetExchangeId: 'exc_1',
      exchangeIds: ['exc_1'],
      score: 1,
      signals: [],
      alternatives: [],
    },
    createdAt: now,
    updatedAt: now,
  }
}

/** The ref of the snapshot line `<role> "<name>" … [ref=eN]`. */
function refOf(snapshotText: string, role: string, name: string): string {
  const line = snapshotText
    .split('\n')
    .find((l) => l.includes(`${role} ${JSON.stringify(name)}`) && l.includes('[ref='))
  const ref = line && /\[ref=(e\d+)\]/.exec(line)?.[1]
  if (!ref) throw new Error(`No ${role} "${name}" with a ref in:\n${snapshotText}`)
  return ref
}

/** The structured content of a tool result, typed by the caller. */
export const structured = <T>(result: unknown) =>
  (result as { structuredContent: T }).structuredContent

/** What the agent's browse flow learned and ran. */
export interface BrowseFlow {
  candidate: ToolSpec
  /** The verifying run (`service_run` pinned to the candidate's capability). */
  verifyRun: Run
  /** The tool's MCP name once listed, and a call of it with another query. */
  listedName: string | undefined
  call: Run
}

/**
 * The "Done when" flow as an agent does it over MCP: opens a browse session on the
 * directory site, snapshots, fills the search box and submits it by ref (Enter), finishes (a
 * candidate), verifies the candidate by running it once (`service_run` with its capabilityId),
 * and calls the new tool by name with another query.
 */
export async function browseFlow(client: Client, siteUrl: string): Promise<BrowseFlow> {
  const opened = structured<{ sessionId: string; text: string }>(
    await client.callTool({
      name: 'service_browse_open',
      arguments: { url: `${siteUrl}/`, intent: 'search the AI tools directory by keyword' },
    }),
  )
  const { sessionId } = opened
  const page = structured<{ text: string }>(
    await client.callTool({ name: 'snapshot', arguments: { sessionId } }),
  )
  const box = refOf(page.text, 'searchbox', 'Search AI tools')
  await client.callTool({
    name: 'act',
    arguments: { sessionId, ref: box, action: 'fill', value: 'writing' },
  })
  await client.callTool({
    name: 'act',
    arguments: { sessionId, ref: box, action: 'press', value: 'Enter' },
  })
  const finished = structured<{ status: string; candidate: ToolSpec | null }>(
    await client.callTool({ name: 'finish', arguments: { sessionId } }),
  )
  if (finished.status !== 'candidate' || !finished.candidate)
    throw new Error(`finish compiled no candidate: ${JSON.stringify(finished)}`)
  const candidate = finished.candidate
  const query = Object.keys(candidate.inputs.properties)[0]!
  const verifyRun = structured<Run>(
    await client.callTool({
      name: 'service_run',
      arguments: {
        intent: candidate.intent,
        capabilityId: candidate.capabilityId,
        inputs: { [query]: 'writing' },
      },
    }),
  )
  const { tools } = await client.listTools()
  const listedName = tools.find((t) => t.name === candidate.name)?.name
  const call = structured<Run>(
    await client.callTool({ name: candidate.name, arguments: { [query]: 'code' } }),
  )
  return { candidate, verifyRun, listedName, call }
}
