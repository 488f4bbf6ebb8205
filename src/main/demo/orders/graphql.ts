import { buildSchema, execute, getOperationAST, GraphQLError, parse, validate } from 'graphql'
import type { DocumentNode } from 'graphql'
import { PERSISTED, queryHash } from './graphqlQueries'
import type { OrderBook } from './orderBook'

const schema = buildSchema(`
  type Order { id: ID!, item: String!, quantity: Int!, shipping: String!, status: String!, createdAt: String! }
  type OrderList { count: Int!, orders: [Order!]! }
  type Query { orders(status: String): OrderList!, order(id: ID!): Order }
  type Mutation { createOrder(item: String!, quantity: Int!, shipping: String!): Order! }
`)

/** Who asks, and whether they may write (a bearer token, or a cookie session with its CSRF token). */
export interface GraphqlCaller {
  username: string
  mayWrite: boolean
}

export interface GraphqlAnswer {
  status: number
  body: unknown
}

const failure = (status: number, message: string, code: string): GraphqlAnswer => ({
  status,
  body: { errors: [{ message, extensions: { code } }] },
})

/** Apollo's automatic persisted queries learnt at run time are capped, so the app's demo stays small. */
const MAX_LEARNT = 100

/**
 * Answers `POST /graphql` bodies `{query?, operationName?, variables?, extensions?}` over the order
 * book. Persisted queries follow Apollo's APQ protocol (version 1): a body with
 * `extensions.persistedQuery.sha256Hash` and no query runs the known query of that hash (the
 * pages' three operations are known from the start) or answers PERSISTED_QUERY_NOT_FOUND; with a
 * query whose SHA-256 matches, the hash is learnt. Mutations need `caller.mayWrite` (403 otherwise).
 */
export function createGraphqlEndpoint(orders: OrderBook) {
  const learnt = new Map<string, string>()
  const rootValue = {
    orders: ({ status }: { status?: string | null }, caller: GraphqlCaller) => {
      const list = orders.list(caller.username, status)
      return { count: list.length, orders: list }
    },
    order: ({ id }: { id: string }, caller: GraphqlCaller) =>
      orders.find(caller.username, id) ?? null,
    createOrder: (input: Record<string, unknown>, caller: GraphqlCaller) => {
      const result = orders.create(caller.username, {
        item: input.item,
        quantity: input.quantity,
        shipping: input.shipping,
      })
      if ('error' in result)
        throw new GraphQLError(result.error, { extensions: { code: 'BAD_USER_INPUT' } })
      return result.order
    },
  }

  return async function answer(raw: unknown, caller: GraphqlCaller): Promise<GraphqlAnswer> {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      return failure(400, 'Send a JSON object.', 'BAD_REQUEST')
    const body = raw as Record<string, unknown>
    const persisted = (
      body.extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } }
    )?.persistedQuery
    let source = typeof body.query === 'string' ? body.query : undefined
    if (persisted) {
      const hash = persisted.sha256Hash
      if (persisted.version !== 1 || typeof hash !== 'string')
        return failure(400, 'Unsupported persisted query version.', 'PERSISTED_QUERY_NOT_SUPPORTED')
      if (source !== undefined) {
        if (queryHash(source) !== hash)
          return failure(400, 'provided sha does not match query', 'PERSISTED_QUERY_HASH_MISMATCH')
        if (!PERSISTED.has(hash) && learnt.size < MAX_LEARNT) learnt.set(hash, source)
      } else {
        source = PERSISTED.get(hash) ?? learnt.get(hash)
        if (source === undefined)
          return failure(200, 'PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND')
      }
    }
    if (source === undefined) return failure(400, 'Send a query.', 'BAD_REQUEST')
    let document: DocumentNode
    try {
      document = parse(source)
    } catch (error) {
      return failure(400, (error as GraphQLError).message, 'GRAPHQL_PARSE_FAILED')
    }
    const invalid = validate(schema, document)
    if (invalid.length > 0) return { status: 400, body: { errors: invalid.map((e) => e.toJSON()) } }
    const operationName = typeof body.operationName === 'string' ? body.operationName : undefined
    const operation = getOperationAST(document, operationName)
    if (!operation) return failure(400, 'Name the operation to run.', 'BAD_REQUEST')
    if (operation.operation === 'mutation' && !caller.mayWrite)
      return failure(403, 'CSRF token missing or invalid.', 'CSRF_INVALID')
    const result = await execute({
      schema,
      document,
      rootValue,
      contextValue: caller,
      operationName,
      variableValues: (body.variables ?? undefined) as Record<string, unknown> | undefined,
    })
    return { status: 200, body: result }
  }
}
