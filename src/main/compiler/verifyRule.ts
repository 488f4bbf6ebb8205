import type { JsonSchema, VerifyRule } from '../../shared/toolSpec'
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
