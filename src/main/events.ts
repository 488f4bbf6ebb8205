import { EventEmitter } from 'node:events'
import type { AppEventMap, AppEventName } from '../shared/appApi'

/** The app's push events (main → UI), typed by the contract's event map. */
export interface EventBus {
  emit<E extends AppEventName>(event: E, payload: AppEventMap[E]): void
  /** Subscribes; returns the unsubscribe function. */
  on<E extends AppEventName>(event: E, listener: (payload: AppEventMap[E]) => void): () => void
}

/** Creates an event bus; one per core, no module state. */
export function createEventBus(): EventBus {
  const emitter = new EventEmitter()
  // Every open UI window or SSE stream adds a listener per event: many are normal, not a leak.
  emitter.setMaxListeners(0)
  return {
    emit: (event, payload) => void emitter.emit(event, payload),
    on(event, listener) {
      emitter.on(event, listener as (payload: unknown) => void)
      return () => emitter.off(event, listener as (payload: unknown) => void)
    },
  }
}
