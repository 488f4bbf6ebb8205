import type { FastifyInstance } from 'fastify'
import { ServiceError } from '../../../shared/errors'
import type { LocalSiteRepository } from '../../store/localSiteRepository'
import type { Authenticator } from '../../surface/caller'
import { parseLocalSiteHost } from '../../surface/localSites'
import { routeSchema } from '../../surface/openapi/routeSchema'
import { json } from '../../surface/openapi/docParts'

/**
 * The owner's allow-list of local sites, owner token only (the app's UI):
 * `GET /v1/local-sites` lists `{sites: [{host, createdAt}]}`; `PUT /v1/local-sites/{host}`
 * allows one (201, or 200 when it already was); `DELETE /v1/local-sites/{host}` takes it off
 * (204, 404 `not_found` when it was not on). API keys and OAuth tokens get 403 `forbidden`.
 */
export function registerLocalSiteRoutes(
  app: FastifyInstance,
  deps: { auth: Authenticator; localSites: LocalSiteRepository; clock: () => number },
): void {
  app.get(
    '/v1/local-sites',
    {
      schema: routeSchema({
        summary: 'The local sites the owner allowed API URLs to reach (loopback, private network).',
        tag: 'app',
        auth: 'owner',
        responses: { '200': json('`{sites: [{host, createdAt}]}`') },
        errors: [],
      }),
    },
    async (request) => {
      const caller = deps.auth.requireOwner(request)
      return { sites: deps.localSites.list(caller.tenant) }
    },
  )

  app.put<{ Params: { host: string } }>(
    '/v1/local-sites/:host',
    {
      schema: routeSchema({
        summary: 'Allow a local site (`host:port` or a host name) for indexing and browsing.',
        tag: 'app',
        auth: 'owner',
        responses: { '200': json('Already allowed.'), '201': json('`{host, createdAt}`') },
        errors: [],
      }),
    },
    async (request, reply) => {
      const caller = deps.auth.requireOwner(request)
      const host = parseLocalSiteHost(request.params.host)
      const created = deps.localSites.add(caller.tenant, host, deps.clock())
      const site = deps.localSites.list(caller.tenant).find((s) => s.host === host)!
      return reply.status(created ? 201 : 200).send(site)
    },
  )

  app.delete<{ Params: { host: string } }>(
    '/v1/local-sites/:host',
    {
      schema: routeSchema({
        summary: 'Take a local site off the allow-list.',
        tag: 'app',
        auth: 'owner',
        responses: { '204': { description: 'Removed.' } },
        errors: ['not_found'],
      }),
    },
    async (request, reply) => {
      const caller = deps.auth.requireOwner(request)
      const host = parseLocalSiteHost(request.params.host)
      if (!deps.localSites.remove(caller.tenant, host))
        throw new ServiceError('not_found', `${host} is not an allowed local site.`)
      return reply.status(204).send()
    },
  )
}
