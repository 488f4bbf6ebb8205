import { useEffect, useReducer } from 'react'

/**
 * The core's time in ms, re-rendering every `everyMs`: this window's clock plus `skewMs` (the
 * core's clock minus this one, learnt from `requirements.list`), so a countdown agrees with the
 * core that decides when a requirement expires. Read at each render, never from a stale tick.
 */
export function useNow(skewMs = 0, everyMs = 1000): number {
  const [, tick] = useReducer((n: number) => n + 1, 0)
  useEffect(() => {
    const timer = setInterval(tick, everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
  return Date.now() + skewMs
}
