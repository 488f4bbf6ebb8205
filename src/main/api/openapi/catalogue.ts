import type { FastifyInstance } from 'fastify'

/** One route the server answers: a method (never the automatic HEAD) and Fastify's path. */
export interface CatalogueRoute {
  method: string
  /** Fastify's path, parameters as `:name`, a wildcard as `*`. */
  url: string
}

export interface RouteCatalogue {
  /** Every route registered so far, in registration order, each method once. */
  list(): CatalogueRoute[]
}

/**
 * Collects every route the server registers through Fastify's `onRoute` hook, so the OpenAPI
 * document cannot miss one: call it before any route is registered (the hook sees only later
 * routes; encapsulated plugins inherit it). HEAD routes are listed as their GET: Fastify adds
 * one beside each GET, answering like it without a body.
 */
export function createRouteCatalogue(app: FastifyInstance): RouteCatalogue {
  const routes: CatalogueRoute[] = []
  const seen = new Set<string>()
  app.addHook('onRoute', (route) => {
    for (const given of [route.method].flat()) {
      // The HEAD Fastify adds stands for its GET; for a prefixed '/' (`/demo/orders/`) Fastify
      // announces only that HEAD, so the GET is known through it.
      const method = given === 'HEAD' ? 'GET' : given
      const key = `${method} ${route.url}`
      if (seen.has(key)) continue
      seen.add(key)
      routes.push({ method, url: route.url })
    }
  })
  return { list: () => [...routes] }
}
