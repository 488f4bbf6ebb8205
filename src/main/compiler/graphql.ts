import { Kind, parse, type OperationDefinitionNode } from 'graphql'
import type { Exchange } from '../../shared/trace'
import { safeJson, safeUrl } from '../../shared/safeJson'

/** A GraphQL operation carried in a request body. */
export interface GraphqlOperation {
  /** `operationName`, else the operation's own name, else null. */
  operationName: string | null
  /** From the parsed query text; null for a persisted query sent without its text. */
  kind: 'query' | 'mutation' | 'subscription' | null
  /** `extensions.persistedQuery.sha256Hash` (Apollo automatic persisted queries), or null. */
  persistedHash: string | null
  /** The first root field of the operation (`searchTools`), when the text is known. */
  rootField: string | null
}

/**
 * The GraphQL operation of an exchange: a POST body, or a GET whose query carries `query`,
 * `operationName`, `variables` and `extensions` (JSON-encoded) as GraphQL over HTTP allows.
 */
export function graphqlOfExchange(exchange: Exchange, body: unknown): GraphqlOperation | null {
  if (exchange.method.toUpperCase() !== 'GET') return graphqlOperation(body, exchange.url)
  const url = safeUrl(exchange.url)
  if (!url) return null
  const params = url.searchParams
  if (!params.has('query') && !params.has('extensions')) return null
  const json = (name: string) => safeJson(params.get(name) ?? 'null') ?? null
  const pseudo: Record<string, unknown> = { variables: json('variables') ?? {} }
  if (params.has('query')) pseudo.query = params.get('query')
  if (params.has('operationName')) pseudo.operationName = params.get('operationName')
  if (params.has('extensions')) pseudo.extensions = json('extensions')
  return graphqlOperation(pseudo, exchange.url)
}

/** Names that read rather than write: the verbs and nouns of queries. */
const READ_NAME =
  /^(get|list|search|find|fetch|query|read|load|lookup|show|view|browse|count|check|resolve)|(query|search|list|lookup|details?|info|page|feed|results?|suggestions?)$/i

/**
 * Recognises a GraphQL POST body (GraphQL over HTTP, graphql.org "Serving over HTTP"): an
 * object with a `query` string that parses as a GraphQL document, or a persisted query
 * (`extensions.persistedQuery.sha256Hash`) without text. A plain `{query: "..."}` search body is
 * not GraphQL: its text does not parse, or nothing else in the request says GraphQL.
 */
export function graphqlOperation(body: unknown, url: string): GraphqlOperation | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null
  const b = body as Record<string, unknown>
  const named = typeof b.operationName === 'string' && b.operationName ? b.operationName : null
  const persisted = (b.extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined)
    ?.persistedQuery?.sha256Hash
  const persistedHash = typeof persisted === 'string' ? persisted : null
  if (typeof b.query === 'string' && b.query.includes('{')) {
    const saysGraphql =
      named !== null ||
      'variables' in b ||
      persistedHash !== null ||
      /graphql|gql/i.test(url) ||
      /^\s*(query|mutation|subscription|fragment)\b/.test(b.query)
    const operation = saysGraphql ? parseOperation(b.query, named) : null
    if (operation)
      return {
        operationName: named ?? operation.name?.value ?? null,
        kind: operation.operation as GraphqlOperation['kind'],
        persistedHash,
        rootField: rootField(operation),
      }
    return null
  }
  if (persistedHash) return { operationName: named, kind: null, persistedHash, rootField: null }
  return null
}

/**
 * Whether the operation may write: a parsed `query` reads; a mutation (or subscription) writes;
 * a persisted query without text reads only when its name reads like a query. Unsure: writes.
 */
export function graphqlMutating(op: GraphqlOperation): { mutating: boolean; detail: string } {
  if (op.kind === 'query') return { mutating: false, detail: 'a GraphQL query reads' }
  if (op.kind) return { mutating: true, detail: `a GraphQL ${op.kind} writes` }
  if (op.operationName && READ_NAME.test(op.operationName))
    return {
      mutating: false,
      detail: `persisted query "${op.operationName}" is named like a read`,
    }
  return {
    mutating: true,
    detail: `persisted query ${op.operationName ? `"${op.operationName}" ` : ''}without its text: may write`,
  }
}

function parseOperation(text: string, name: string | null): OperationDefinitionNode | null {
  try {
    const doc = parse(text, { noLocation: true })
    const ops = doc.definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    )
    return (name ? ops.find((o) => o.name?.value === name) : undefined) ?? ops[0] ?? null
  } catch {
    // Not GraphQL (or not this grammar): the request is read as plain HTTP.
    return null
  }
}

function rootField(op: OperationDefinitionNode): string | null {
  const first = op.selectionSet.selections.find((s) => s.kind === Kind.FIELD)
  return first && first.kind === Kind.FIELD ? first.name.value : null
}
