/**
 * A person's (or program's) edit of a tool: its name and description, its
 * inputs, the target request's headers and body fields, and the verify rule. Every part is
 * optional; what is absent stays as it was. Saving any edit makes a new version that is a
 * candidate again: its first authorized run must verify it (interface.md "Tool candidate").
 */

/** The JSON types an input may take (the compiler's slot types). */
export const INPUT_TYPES = ['string', 'integer', 'number', 'boolean'] as const
export type InputType = (typeof INPUT_TYPES)[number]

/** One input as edited: `slot` (`p0`) names which; every other field is its new state. */
export interface InputEdit {
  slot: string
  /** The semantic name callers send (surface A and MCP). */
  name: string
  type: InputType
  required: boolean
  /** Absent or null: no default. */
  default?: string | number | boolean | null
  /** The only values allowed; absent, null or empty: any value of the type. */
  enum?: Array<string | number | boolean> | null
  description?: string
}

/** A field of the target request's body: a JSON dot path or a form field name. */
interface BodyFieldEdit {
  path: string
  /** Literal text or a placeholder: `{{input.p0}}`, `{{secret:NAME}}`. */
  value: string
}

/** The declared outcome as edited (`VerifyRule` of toolSpec.ts, its editable parts). */
export interface VerifyEdit {
  /** Accepted HTTP statuses, inclusive. */
  status?: [number, number]
  mimeType?: string
  /** Paths that must exist in the JSON answer, with their JSON types. */
  required?: Array<{ path: string; type: string }>
}

export interface ToolEdit {
  /** `<site>__<verb_object>`: lowercase letters, digits and `_`, unique on the tool's site. */
  name?: string
  description?: string
  /** The complete list of the tool's inputs: one entry per existing slot, none added or left out. */
  inputs?: InputEdit[]
  /** Headers of the target request: a value sets the header, null removes it. */
  headers?: Record<string, string | null>
  body?: BodyFieldEdit[]
  verify?: VerifyEdit
}

/**
 * Headers the sender owns, never a tool (RFC 9110 §7.2 `Host`, §7.6.1 the hop-by-hop
 * `Connection`, `Keep-Alive`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade`, §8.6
 * `Content-Length`, and `Proxy-*`): a tool that sets `Host` next to a secret would send that
 * secret to its address under another virtual host. Edits refuse them; the sender drops them.
 */
export const SENDER_HEADER =
  /^(host|connection|keep-alive|te|trailer|transfer-encoding|upgrade|content-length|proxy-.*)$/i

/** A tool name: what a surface-A path segment and an MCP tool name can both carry. */
const TOOL_NAME_PATTERN = '^[a-z0-9][a-z0-9_]{0,79}$'
const HEADER_NAME_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$"

// anyOf, not a type list: Ajv's strict mode (the app dispatch) refuses union types.
const scalar = { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] }

/** JSON Schema of a `ToolEdit` (the app method `tools.update` and `PATCH /v1/tools/{id}`). */
export const TOOL_EDIT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name: { type: 'string', pattern: TOOL_NAME_PATTERN },
    description: { type: 'string', maxLength: 2000 },
    inputs: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['slot', 'name', 'type', 'required'],
        properties: {
          slot: { type: 'string', pattern: '^p[0-9]{1,3}$' },
          name: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' },
          type: { enum: [...INPUT_TYPES] },
          required: { type: 'boolean' },
          default: { anyOf: [...scalar.anyOf, { type: 'null' }] },
          enum: { oneOf: [{ type: 'null' }, { type: 'array', maxItems: 200, items: scalar }] },
          description: { type: 'string', maxLength: 500 },
        },
      },
    },
    headers: {
      type: 'object',
      maxProperties: 50,
      propertyNames: { pattern: HEADER_NAME_PATTERN },
      additionalProperties: { anyOf: [{ type: 'string', maxLength: 4000 }, { type: 'null' }] },
    },
    body: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'value'],
        properties: {
          path: { type: 'string', minLength: 1, maxLength: 300 },
          value: { type: 'string', maxLength: 10000 },
        },
      },
    },
    verify: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        status: {
          type: 'array',
          minItems: 2,
          maxItems: 2,
          items: { type: 'integer', minimum: 100, maximum: 599 },
        },
        mimeType: { type: 'string', minLength: 1, maxLength: 100 },
        required: {
          type: 'array',
          maxItems: 200,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['path', 'type'],
            properties: {
              path: { type: 'string', minLength: 1, maxLength: 300 },
              type: { enum: ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] },
            },
          },
        },
      },
    },
  },
} as const
