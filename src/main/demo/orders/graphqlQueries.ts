import { createHash } from 'node:crypto'

const ORDER_FIELDS = 'id item quantity shipping status createdAt'

/** The three operations the demo's pages send, by operationName. */
export const OPERATIONS = {
  Orders: `query Orders($status: String) { orders(status: $status) { count orders { ${ORDER_FIELDS} } } }`,
  Order: `query Order($id: ID!) { order(id: $id) { ${ORDER_FIELDS} } }`,
  CreateOrder: `mutation CreateOrder($item: String!, $quantity: Int!, $shipping: String!) { createOrder(item: $item, quantity: $quantity, shipping: $shipping) { ${ORDER_FIELDS} } }`,
} as const

/** Hex SHA-256 of a query text, the hash of Apollo's automatic persisted queries (version 1). */
export const queryHash = (query: string): string =>
  createHash('sha256').update(query, 'utf8').digest('hex')

/** sha256Hash → query text of the operations above; the site knows these from the start. */
export const PERSISTED: ReadonlyMap<string, string> = new Map(
  Object.values(OPERATIONS).map((query) => [queryHash(query), query]),
)
