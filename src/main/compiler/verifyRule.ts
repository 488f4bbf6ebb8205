import type { JsonSchema, VerifyRule } from '../../shared/toolSpec'
import { inferSchema } from './inferSchema'
import { largestRecordList } from './selectTarget'

/** How many fields of the record list's items the rule promises: the stable core of a record. */
const MAX_ITEM_FIELDS = 12

/**
 * Writes the declared outcome of a tool (issue 2): a 2xx JSON answer whose observed top-level
 * fields are present with their types, and, for the main record list, the fields every observed
 * record carried. Paths use dots and `[]` for "every item of the list".
 */
export function deriveVerifyRule(output: JsonSchema, answer: unknown): VerifyRule {
  const required: VerifyRule['required'] = []
  if (output.type === 'object') {
    for (const key of output.required ?? []) {
      const type = output.properties?.[key]?.type
      if (typeof type === 'string') required.push({ path: key, type })
    }
  }
  const list = largestRecordList(answer)
  if (list) {
    const items = schemaAt(output, list.path)?.items
    const itemPath = list.path ? `${list.path}[]` : '[]'
    for (const key of (items?.required ?? []).slice(0, MAX_ITEM_FIELDS)) {
      const type = items?.properties?.[key]?.type
      if (typeof type === 'string' && type !== 'null')
        required.push({ path: `${itemPath}.${key}`, type })
    }
  }
  return { status: [200, 299], mimeType: 'application/json', required }
}

function schemaAt(schema: JsonSchema, path: string): JsonSchema | undefined {
  if (!path) return schema
  let node: JsonSchema | undefined = schema
  for (const key of path.split('.')) node = node?.properties?.[key]
  return node
}

/** The page view every document tool returns (spec "Page result (read_page and get_search)"). */
export const PAGE_VIEW_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    text: { type: 'string' },
    links: {
      type: 'array',
      items: {
        type: 'object',
        properties: { text: { type: 'string' }, href: { type: 'string' } },
        required: ['text', 'href'],
      },
    },
  },
  required: ['title', 'text', 'links'],
}

/**
 * The output schema and declared outcome of a document tool (issue 3 "Page reads",
 * "Server-rendered data"): a 2xx HTML page whose view has `title`, `text` and `links`, plus,
 * when the page embeds records, `data` with the fields every observed record carried.
 */
export function deriveDocumentRule(data: unknown): { output: JsonSchema; verify: VerifyRule } {
  const required: VerifyRule['required'] = [
    { path: 'title', type: 'string' },
    { path: 'text', type: 'string' },
    { path: 'links', type: 'array' },
  ]
  if (data === undefined)
    return {
      output: PAGE_VIEW_SCHEMA,
      verify: { status: [200, 299], mimeType: 'text/html', required },
    }
  const dataSchema = inferSchema(data)
  const dataRule = deriveVerifyRule(dataSchema, data)
  const output: JsonSchema = {
    ...PAGE_VIEW_SCHEMA,
    properties: { data: dataSchema, ...PAGE_VIEW_SCHEMA.properties },
    required: ['data', 'title', 'text', 'links'],
  }
  const dataType = typeof dataSchema.type === 'string' ? dataSchema.type : 'object'
  const nested = dataRule.required.map((r) => ({
    path: r.path.startsWith('[]') ? `data${r.path}` : `data.${r.path}`,
    type: r.type,
  }))
  return {
    output,
    verify: {
      status: [200, 299],
      mimeType: 'text/html',
      required: [{ path: 'data', type: dataType }, ...required, ...nested],
    },
  }
}
