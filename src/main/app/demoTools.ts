/**
 * The demo shop is mounted on the local service itself (`/demo/orders`, `api/server.ts`), so a
 * tool recorded on it names the service's address of that day. When the service starts on another
 * port, those tools would call a port nothing answers on: they are re-pointed
 * to the address the service listens on now. Tools of any other site are never touched.
 */
import type { ToolSpec } from '../../shared/toolSpec'
import type { ToolRepository } from '../store/toolRepository'

/** `http://127.0.0.1:<port>/demo/orders/…` (or localhost): a request to a local demo shop. */
const DEMO_URL = /^http:\/\/(?:127\.0\.0\.1|localhost):\d+(?=\/demo\/orders(?:\/|$|\?))/

/**
 * Re-points every demo-shop tool of `tools` whose requests name another local address to
 * `origin` (`http://127.0.0.1:7412`): each step's URL and Origin/Referer headers, and its
 * `siteHost`, dated `now` (ms). Returns how many tools changed. A tool whose new name clashes with one already on
 * the new address is left as it is (the person keeps both and deletes one).
 */
export function repointDemoTools(tools: ToolRepository, origin: string, now: number): number {
  const host = new URL(origin).host
  let changed = 0
  for (const tool of tools.list()) {
    if (tool.siteHost === host || !tool.steps.some((s) => DEMO_URL.test(s.request.url))) continue
    const moved = movedTo(tool, origin, host, now)
    if (!moved) continue
    try {
      tools.save(moved)
      changed++
    } catch {
      // A tool of this name already exists on the new address: both stay, neither is lost.
    }
  }
  return changed
}

function movedTo(tool: ToolSpec, origin: string, host: string, now: number): ToolSpec | null {
  const old = tool.steps.map((s) => DEMO_URL.exec(s.request.url)?.[0]).find(Boolean)
  if (!old) return null
  const swap = (text: string) => (text.startsWith(old) ? origin + text.slice(old.length) : text)
  return {
    ...tool,
    siteHost: host,
    updatedAt: now,
    capabilityId: tool.capabilityId.replace(tool.siteHost, host),
    steps: tool.steps.map((s) => ({
      ...s,
      request: {
        ...s.request,
        url: swap(s.request.url),
        headers: Object.fromEntries(
          Object.entries(s.request.headers).map(([k, v]) => [
            k,
            /^(origin|referer)$/i.test(k) ? swap(v) : v,
          ]),
        ),
      },
    })),
  }
}
