import { SHIPPING } from './types'
import type { Order, Shipping } from './types'

/** What a create request carries, before checking. */
interface OrderInput {
  item: unknown
  quantity: unknown
  shipping: unknown
}

export interface OrderBook {
  /** The owner's orders, oldest first; `status` keeps only that status. */
  list(owner: string, status?: string | null): Order[]
  /** The owner's order with that id, or undefined (another owner's order is not found either). */
  find(owner: string, id: string): Order | undefined
  /** Checks and stores a new 'pending' order; returns it, or the reason it was refused. */
  create(owner: string, input: OrderInput): { order: Order } | { error: string }
}

const SEEDS: [item: string, quantity: number, shipping: Shipping, status: string, day: string][] = [
  ['Blue ceramic mug', 2, 'standard', 'delivered', '2024-03-01'],
  ['Loose-leaf tea sampler', 1, 'express', 'shipped', '2024-03-08'],
  ['Dotted notebook', 5, 'standard', 'pending', '2024-03-15'],
]

/**
 * An in-memory order book: each owner starts with the same three seeded orders; ids are
 * 'ord_1001', 'ord_1002', … across owners in creation order, so a fresh instance is deterministic.
 * `now` stamps createdAt of new orders (ms since the epoch).
 */
export function createOrderBook(owners: string[], now: () => number): OrderBook {
  const byOwner = new Map<string, Order[]>()
  let next = 1001
  const add = (owner: string, order: Omit<Order, 'id'>): Order => {
    const stored = { id: `ord_${next++}`, ...order }
    const list = byOwner.get(owner) ?? []
    list.push(stored)
    byOwner.set(owner, list)
    return stored
  }
  for (const owner of owners)
    for (const [item, quantity, shipping, status, day] of SEEDS)
      add(owner, { item, quantity, shipping, status, createdAt: `${day}T10:00:00.000Z` })

  return {
    list: (owner, status) =>
      (byOwner.get(owner) ?? [])
        .filter((o) => !status || o.status === status)
        .map((o) => ({ ...o })),
    find(owner, id) {
      const found = byOwner.get(owner)?.find((o) => o.id === id)
      return found && { ...found }
    },
    create(owner, { item, quantity, shipping }) {
      if (typeof item !== 'string' || !item.trim() || item.length > 200)
        return { error: 'item must be a non-empty string of at most 200 characters.' }
      if (
        typeof quantity !== 'number' ||
        !Number.isInteger(quantity) ||
        quantity < 1 ||
        quantity > 999
      )
        return { error: 'quantity must be an integer from 1 to 999.' }
      if (typeof shipping !== 'string' || !(SHIPPING as readonly string[]).includes(shipping))
        return { error: `shipping must be one of ${SHIPPING.join(', ')}.` }
      const order = add(owner, {
        item: item.trim(),
        quantity,
        shipping: shipping as Shipping,
        status: 'pending',
        createdAt: new Date(now()).toISOString(),
      })
      return { order: { ...order } }
    },
  }
}
