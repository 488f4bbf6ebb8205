import { describe, expect, it } from 'vitest'
import {
  closeSlots,
  createSlots,
  freeSlot,
  isBrowserCapacityError,
  takeSlot,
} from '../../../src/main/engine/browserSlots'

describe('browser slots', () => {
  it('passes a freed slot to the oldest waiter, so a newcomer cannot overtake the queue', async () => {
    const slots = createSlots(1, 60_000, Date.now)
    const signal = new AbortController().signal
    await takeSlot(slots, signal, false)
    const order: string[] = []
    const first = takeSlot(slots, signal, true).then(() => order.push('first'))
    const second = takeSlot(slots, signal, true).then(() => order.push('second'))
    expect(slots.queue).toHaveLength(2)

    freeSlot(slots)
    await first
    expect(order).toEqual(['first'])
    expect(slots.leased).toBe(1)
    // The slot went to the first waiter: a caller that does not wait is refused.
    const refused = await takeSlot(slots, signal, false).catch((e: unknown) => e)
    expect(isBrowserCapacityError(refused)).toBe(true)
    expect(refused).toMatchObject({ waited: false, retryAfterSeconds: 30 })

    freeSlot(slots)
    await second
    expect(order).toEqual(['first', 'second'])
    expect(slots.queue).toHaveLength(0)
  })

  it('refuses every waiter and newcomer once closed, and keeps a freed slot from the queue', async () => {
    const slots = createSlots(0, 60_000, Date.now)
    expect(slots.capacity).toBe(1)
    const signal = new AbortController().signal
    await takeSlot(slots, signal, true)
    const waiting = takeSlot(slots, signal, true).catch((e: unknown) => e)
    closeSlots(slots)
    expect(await waiting).toMatchObject({ message: 'The browser pool is closed.' })
    expect(await takeSlot(slots, signal, true).catch((e: unknown) => e)).toMatchObject({
      message: 'The browser pool is closed.',
    })
    freeSlot(slots)
    expect(slots.leased).toBe(0)
  })
})
