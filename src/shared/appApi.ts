import type { ErrorBody } from './errors'
import type { Run } from './run'
import type { ToolSpec, ToolSummary } from './toolSpec'
import type { ExchangeSummary, Exchange } from './trace'

/**
 * The one typed contract between the UI and the core (DESIGN.md §7). The Electron preload and the
 * web transport (`POST /app-api/<method>`) both carry exactly these methods and events; a channel
 * not listed here is refused.
 */

/** Why the compiler made no candidate: what evidence was missing. */
export interface CompileExplanation {
  reason: string
  missing: string[]
  considered: Array<{ exchangeId: string; method: string; url: string; rejectedBecause: string }>
}

export interface RecordingState {
  sessionId: string
  traceId: string
  url: string
  intent: string
  startedAt: number
  exchanges: ExchangeSummary[]
  actionCount: number
}

export interface RecordingResult {
  traceId: string
  candidate: ToolSpec | null
  explanation: CompileExplanation | null
}

/** A candidate (or tool) with the exchanges its evidence names, for the review view. */
export interface ToolDetail {
  tool: ToolSpec
  target: Exchange | null
}

export interface AppInfo {
  version: string
  dataDir: string
  apiUrl: string
  chromium: { path: string | null; hint: string | null }
}

export interface KeySummary {
  id: string
  label: string
  prefix: string
  createdAt: number
  revokedAt: number | null
}

/** Method name → `[input, result]`. */
export interface AppApiMethods {
  'app.info': [Record<string, never>, AppInfo]
  'recorder.start': [{ url: string; intent: string }, RecordingState]
  'recorder.current': [Record<string, never>, RecordingState | null]
  'recorder.stop': [{ sessionId: string }, RecordingResult]
  'tools.list': [Record<string, never>, ToolSummary[]]
  /** Manual compile: exactly this exchange of a stored trace ("use this request instead"). */
  'compile.prepare': [
    { traceId: string; exchangeId: string; intent?: string; dependencyExchangeIds?: string[] },
    RecordingResult,
  ]
  'tools.get': [{ id: string }, ToolDetail]
  'tools.run': [{ id: string; inputs: Record<string, unknown> }, Run]
  'tools.delete': [{ id: string }, { deleted: boolean }]
  'runs.list': [{ toolId?: string }, Run[]]
  'keys.list': [Record<string, never>, KeySummary[]]
  'keys.create': [{ label: string }, { key: string; summary: KeySummary }]
}

export type AppApiMethod = keyof AppApiMethods
export type AppApiInput<M extends AppApiMethod> = AppApiMethods[M][0]
export type AppApiResult<M extends AppApiMethod> = AppApiMethods[M][1]

/** Push events, main → UI. */
export interface AppEventMap {
  'recorder.exchange': { sessionId: string; exchange: ExchangeSummary }
  'recorder.action': { sessionId: string; actionCount: number }
  'recorder.stopped': { sessionId: string; result: RecordingResult }
  'runs.updated': { run: Run }
  /** A tool was verified, quarantined or let out of quarantine. */
  'tools.changed': { tool: ToolSummary }
}
export type AppEventName = keyof AppEventMap

/** What crosses IPC or the web transport: Electron keeps only an error's message, so wrap it. */
export type AppResult<T> = { ok: true; value: T } | { ok: false; error: ErrorBody }

const emptyObject = { type: 'object', additionalProperties: false, properties: {} } as const
const idOnly = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1 } },
} as const

/** JSON Schema of each method's input: the allowlist of channels and what each may carry. */
export const APP_API_INPUT_SCHEMAS: Record<AppApiMethod, object> = {
  'app.info': emptyObject,
  'recorder.start': {
    type: 'object',
    additionalProperties: false,
    required: ['url', 'intent'],
    properties: {
      url: { type: 'string', minLength: 1, maxLength: 2000 },
      intent: { type: 'string', minLength: 1, maxLength: 2000 },
    },
  },
  'recorder.current': emptyObject,
  'recorder.stop': {
    type: 'object',
    additionalProperties: false,
    required: ['sessionId'],
    properties: { sessionId: { type: 'string', minLength: 1 } },
  },
  'tools.list': emptyObject,
  'compile.prepare': {
    type: 'object',
    additionalProperties: false,
    required: ['traceId', 'exchangeId'],
    properties: {
      traceId: { type: 'string', minLength: 1, maxLength: 200 },
      exchangeId: { type: 'string', minLength: 1, maxLength: 200 },
      intent: { type: 'string', minLength: 1, maxLength: 2000 },
      dependencyExchangeIds: {
        type: 'array',
        maxItems: 50,
        items: { type: 'string', minLength: 1, maxLength: 200 },
      },
    },
  },
  'tools.get': idOnly,
  'tools.run': {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'inputs'],
    properties: { id: { type: 'string', minLength: 1 }, inputs: { type: 'object' } },
  },
  'tools.delete': idOnly,
  'runs.list': {
    type: 'object',
    additionalProperties: false,
    properties: { toolId: { type: 'string' } },
  },
  'keys.list': emptyObject,
  'keys.create': {
    type: 'object',
    additionalProperties: false,
    required: ['label'],
    properties: { label: { type: 'string', minLength: 1, maxLength: 100 } },
  },
}

export const APP_API_METHODS = Object.keys(APP_API_INPUT_SCHEMAS) as AppApiMethod[]
export const APP_EVENT_NAMES: AppEventName[] = [
  'recorder.exchange',
  'recorder.action',
  'recorder.stopped',
  'runs.updated',
]

/** True when `name` is a method of the contract (the preload's and web transport's allowlist). */
export function isAppApiMethod(name: string): name is AppApiMethod {
  return Object.prototype.hasOwnProperty.call(APP_API_INPUT_SCHEMAS, name)
}
