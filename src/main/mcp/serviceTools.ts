import type { Indexing } from '../browse/indexJobs'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import type { ToolSpec } from '../../shared/toolSpec'
import {
  BROWSE_ACTIONS,
  checkSessionId,
  type BrowseActInput,
  type BrowseSessions,
} from '../browse/browseSessions'
import type { RunEngine } from '../engine/runEngine'
import type { ToolRepository } from '../store/toolRepository'
import { mcpError } from './mcpErrors'
import { settleWithin } from '../surface/deadline'
import { jsonResult, MCP_DEADLINE_MS, plainRunResult, runResult } from './runResults'
import { callSiteTool, type SiteToolConnection } from './siteTools'
import { inScope } from '../surface/toolsInScope'
import { browseGuardFor, guardApiUrl, type LocalSitesOf } from '../surface/localSites'
import { COMPOSE_BODY_SCHEMA, type ComposeBody } from '../../shared/composeSchemas'
import { compose } from '../surface/compose'
import { checkContract } from '../surface/bodyCheck'
import { publicSchema } from './siteTools'

/** The browse sessions service as MCP uses it (`core.browse`). */
export type McpBrowse = Pick<BrowseSessions, 'open' | 'snapshot' | 'act' | 'finish' | 'close'>

/** Ranks a workspace's tools for an intent (the router, docs/architecture.md "The pipeline's parts"): best first, score ≥ 0.9. */
export type RouteIntent = (tenant: string, intent: string) => ToolSpec[] | Promise<ToolSpec[]>

export interface ServiceToolDeps {
  tools: ToolRepository
  engine: RunEngine
  browse: McpBrowse
  route: RouteIntent
  indexing: Pick<Indexing, 'index'>
  /** The owner's allowed local sites: where API URLs may reach inside. */
  localSites?: LocalSitesOf | undefined
}

export interface ServiceConnection extends SiteToolConnection {
  /** The owner (the app itself, or the stdio bridge) may read every workspace's runs. */
  owner: boolean
}

type Args = Record<string, unknown>
type Handler = (deps: ServiceToolDeps, c: ServiceConnection, args: Args) => Promise<CallToolResult>

const str = (description: string) => ({ type: 'string', description })
const sessionId = str('The exact sessionId that service_browse_open returned.')

/**
 * The service's own MCP tools (interface.md "C": `service_run`, `service_resume`, `service_inspect`,
 * `service_index`, `service_browse_open`, and the browser calls `snapshot`, `act`, `finish`,
 * `close`), each with its input schema and handler.
 */
const SERVICE_TOOLS: Record<string, { tool: Omit<Tool, 'name'>; handle: Handler }> = {
  service_run: {
    tool: {
      description:
        'Run a task: an intent routed to the best verified tool, or the tool whose capabilityId is pinned (a candidate runs once this way and is verified when it succeeds).',
      inputSchema: {
        type: 'object',
        properties: {
          intent: str('What to do, in words.'),
          inputs: { type: 'object', description: "The tool's inputs by name." },
          capabilityId: str('Run exactly this tool (its capabilityId).'),
        },
        required: ['intent'],
      },
      annotations: { destructiveHint: true, openWorldHint: true },
    },
    handle: serviceRun,
  },
  service_compose: {
    tool: {
      description:
        'Call a verified tool by app (its site host) and name, synchronously, and get {ok: true, data, runId} or {ok: false, code, error, outcome?}; or run up to 10 "steps" in order, each input {"$from": "steps[0].data…"} taken from an earlier result, stopping at the first that fails. A tool that changes data needs allow_mutation: true. Nothing is retried: outcome "unknown" means check the site first.',
      inputSchema: { ...publicSchema(COMPOSE_BODY_SCHEMA), type: 'object' },
      annotations: { destructiveHint: true, openWorldHint: true },
    },
    handle: serviceCompose,
  },
  service_resume: {
    tool: {
      description:
        'Answer the requirements of an input_required run (an approval, a choice, a value) and continue it.',
      inputSchema: {
        type: 'object',
        properties: {
          runId: str('The run to continue.'),
          stateRevision: { type: 'integer', description: "The run's current stateRevision." },
          answers: {
            type: 'array',
            description: 'One answer per requirement: {requirementId, value | optionId | approve}.',
            items: { type: 'object' },
          },
        },
        required: ['runId', 'stateRevision', 'answers'],
      },
      annotations: { destructiveHint: true, openWorldHint: true },
    },
    handle: async (deps, c, args) => {
      only(args, ['runId', 'stateRevision', 'answers'])
      const runId = requireString(args, 'runId')
      const started = deps.engine.respond(runId, c.owner ? null : c.tenant, {
        stateRevision: args.stateRevision,
        answers: args.answers,
      })
      const run = await settleWithin(started.done, c.deadlineMs ?? MCP_DEADLINE_MS)
      return runResult(run ?? deps.engine.get(runId)!, c)
    },
  },
  service_inspect: {
    tool: {
      description: 'Read a run: its status, result, error or open requirements.',
      inputSchema: { type: 'object', properties: { runId: str('The run.') }, required: ['runId'] },
      annotations: { readOnlyHint: true },
    },
    handle: async (deps, c, args) => {
      only(args, ['runId'])
      const runId = requireString(args, 'runId')
      const run = deps.engine.get(runId)
      if (!run || (!c.owner && run.tenant !== c.tenant))
        throw mcpError('not_found', `No run ${runId}.`)
      return plainRunResult(run)
    },
  },
  service_index: {
    tool: {
      description:
        'Index a URL: observe it in the local browser and compile a tool for the intent.',
      inputSchema: {
        type: 'object',
        properties: { url: str('The page to observe.'), intent: str('What the tool should do.') },
        required: ['url', 'intent'],
      },
      annotations: { openWorldHint: true },
    },
    handle: async (deps, c, args) => {
      only(args, ['url', 'intent'])
      const url = requireUrl(args)
      const intent = requireString(args, 'intent')
      const target = await guardedTarget(url, c, deps)
      return jsonResult(await deps.indexing.index(c.tenant, { ...target, intent }))
    },
  },
  service_browse_open: {
    tool: {
      description:
        'Open a page in the local browser; answers the sessionId and an accessibility snapshot with element refs.',
      inputSchema: {
        type: 'object',
        properties: { url: str('The page to open.'), intent: str('What you mean to do there.') },
        required: ['url'],
      },
      annotations: { openWorldHint: true },
    },
    handle: async (deps, c, args) => {
      only(args, ['url', 'intent'])
      const url = requireUrl(args)
      const intent = optionalString(args, 'intent')
      const target = await guardedTarget(url, c, deps)
      return jsonResult(
        await deps.browse.open(c.tenant, {
          ...target,
          ...(intent !== undefined ? { intent } : {}),
        }),
      )
    },
  },
  snapshot: {
    tool: {
      description: "The browse session's current page: text and element refs.",
      inputSchema: { type: 'object', properties: { sessionId }, required: ['sessionId'] },
      annotations: { readOnlyHint: true },
    },
    handle: async (deps, c, args) => {
      only(args, ['sessionId'])
      const id = requireSessionId(args)
      return jsonResult(await deps.browse.snapshot(c.tenant, id))
    },
  },
  act: {
    tool: {
      description:
        'Act on an element of the latest snapshot by its ref: click, fill, select, press (a key) or navigate (a URL); answers the new snapshot.',
      inputSchema: {
        type: 'object',
        properties: {
          sessionId,
          ref: str('An element ref of the latest snapshot (not for navigate).'),
          action: { type: 'string', enum: [...BROWSE_ACTIONS] },
          value: str('Text to fill, option to select, key to press, or URL to navigate to.'),
        },
        required: ['sessionId', 'action'],
      },
      annotations: { destructiveHint: true, openWorldHint: true },
    },
    handle: async (deps, c, args) => {
      only(args, ['sessionId', 'ref', 'action', 'value'])
      const id = requireSessionId(args)
      // The browse service checks action, ref and value itself (`invalid_argument`).
      const input = { ref: args.ref, action: args.action, value: args.value } as BrowseActInput
      if (
        input.action === 'navigate' &&
        typeof input.value === 'string' &&
        URL.canParse(input.value)
      )
        await guardApiUrl(input.value, c, deps.localSites)
      return jsonResult(await deps.browse.act(c.tenant, id, input))
    },
  },
  finish: {
    tool: {
      description:
        'End the browse session, keep its trace and compile it: the routing result, with a candidate tool when the evidence supports one.',
      inputSchema: {
        type: 'object',
        properties: { sessionId, intent: str('What the recorded flow does.') },
        required: ['sessionId'],
      },
    },
    handle: async (deps, c, args) => {
      only(args, ['sessionId', 'intent'])
      const id = requireSessionId(args)
      const intent = optionalString(args, 'intent')
      return jsonResult(
        await deps.browse.finish(c.tenant, id, intent !== undefined ? { intent } : {}),
      )
    },
  },
  close: {
    tool: {
      description: 'End the browse session without learning from it.',
      inputSchema: { type: 'object', properties: { sessionId }, required: ['sessionId'] },
    },
    handle: async (deps, c, args) => {
      only(args, ['sessionId'])
      const id = requireSessionId(args)
      await deps.browse.close(c.tenant, id)
      return jsonResult({ sessionId: id, closed: true })
    },
  },
}

/** The service tools as MCP lists them. */
export function listServiceTools(): Tool[] {
  return Object.entries(SERVICE_TOOLS).map(([name, { tool }]) => ({ name, ...tool }))
}

/** Whether `name` is one of the service's own tools (site tools always hold `__`). */
export function isServiceTool(name: string): boolean {
  return Object.hasOwn(SERVICE_TOOLS, name)
}

/** Calls a service tool; refusals are thrown as `McpToolError`s or `ServiceError`s. */
export function callServiceTool(
  deps: ServiceToolDeps,
  connection: ServiceConnection,
  name: string,
  args: Args,
): Promise<CallToolResult> {
  return SERVICE_TOOLS[name]!.handle(deps, connection, args)
}

/**
 * `service_run`: a pinned `capabilityId` runs that tool (404 `capability_not_found`, spec
 * "Request shape"); otherwise the router picks the best tool in scope. No tool for the intent: a
 * failed result `no_capability` naming the index tool.
 */
async function serviceRun(
  deps: ServiceToolDeps,
  c: ServiceConnection,
  args: Args,
): Promise<CallToolResult> {
  only(args, ['intent', 'inputs', 'capabilityId'])
  const intent = requireString(args, 'intent')
  const inputs = args.inputs ?? {}
  if (inputs === null || typeof inputs !== 'object' || Array.isArray(inputs))
    throw invalidArgument('"inputs" must be an object of the tool\'s inputs by name.')
  if (args.capabilityId !== undefined) {
    const capabilityId = requireString(args, 'capabilityId')
    return callSiteTool(deps.engine, { capabilityId }, inputs as Args, c, true)
  }
  const tool = (await deps.route(c.tenant, intent)).find((t) =>
    c.scopes.every((s) => inScope(t, s)),
  )
  if (!tool)
    return jsonResult(
      {
        status: 'failed',
        error: {
          code: 'no_capability',
          message: `No verified tool does "${intent}" with confidence: index the workflow with service_index (or browse it), then run the task again.`,
        },
        result: { next: { tool: 'service_index', intent } },
      },
      true,
    )
  return callSiteTool(deps.engine, { tool }, inputs as Args, c)
}

/**
 * `service_compose`: the compose call (`POST /api/v1/compose/v1/call`, `compose`) over MCP, with
 * the connection's workspace and tool scopes and its call deadline (`MCP_DEADLINE_MS` unless
 * `timeoutMs` asks less). The envelope is the result; one that is not `ok` is a normal result
 * with `isError` (interface.md "Errors" → "Shapes" 3: a failed run is no JSON-RPC error). A refusal
 * before anything was sent (unknown tool, out of scope, a malformed body) is a JSON-RPC error.
 * MCP sends no Idempotency-Key: a repeat is a new call.
 */
async function serviceCompose(
  deps: ServiceToolDeps,
  c: ServiceConnection,
  args: Args,
): Promise<CallToolResult> {
  const body = checkContract<ComposeBody>(COMPOSE_BODY_SCHEMA, args)
  const limit = c.deadlineMs ?? MCP_DEADLINE_MS
  const answer = await compose(
    { engine: deps.engine, toolsFor: () => deps.tools, receipts: null, clock: Date.now },
    {
      tenant: c.tenant,
      scopes: c.scopes,
      body,
      idempotencyKey: null,
      deadlineMs: Math.min(body.timeoutMs ?? limit, limit),
    },
  )
  return jsonResult(answer.body, !answer.body.ok)
}

/**
 * A page the local browser is to open for a connection: its URL checked against the addresses an
 * API caller may reach, and the guard its browser connects through, so redirects and the page's
 * own requests are checked too, where the browser connects.
 */
async function guardedTarget(
  url: string,
  c: ServiceConnection,
  deps: ServiceToolDeps,
): Promise<{ url: string; guard?: NonNullable<ReturnType<typeof browseGuardFor>> }> {
  await guardApiUrl(url, c, deps.localSites)
  const guard = browseGuardFor(c, deps.localSites)
  return { url, ...(guard ? { guard } : {}) }
}

function invalidArgument(message: string) {
  return mcpError('invalid_argument', message)
}

/** Unknown arguments are refused like surface A's (422 `unknown_argument`, listing valid ones). */
function only(args: Args, accepted: string[]): void {
  const unknown = Object.keys(args).filter((k) => !accepted.includes(k))
  if (unknown.length)
    throw mcpError(
      'unknown_argument',
      `Unknown arguments ${unknown.join(', ')}. Valid: ${accepted.join(', ')}.`,
    )
}

function requireString(args: Args, key: string): string {
  const value = args[key]
  if (typeof value !== 'string' || !value.trim())
    throw invalidArgument(`"${key}" is required: a non-blank string.`)
  return value
}

function optionalString(args: Args, key: string): string | undefined {
  if (args[key] === undefined) return undefined
  if (typeof args[key] !== 'string') throw invalidArgument(`"${key}" must be a string.`)
  return args[key]
}

/** interface.md "C": the browser calls need the exact sessionId; missing, blank or non-string → 400. */
function requireSessionId(args: Args): string {
  return checkSessionId(args.sessionId)
}

function requireUrl(args: Args): string {
  const url = requireString(args, 'url')
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw invalidArgument(`"url" must be an absolute http(s) URL, not "${url}".`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw invalidArgument(`"url" must be an http(s) URL, not ${parsed.protocol}.`)
  return url
}
