import type { FastifyInstance } from 'fastify'
import { ServiceError } from '../../../shared/errors'
import type { LocalSiteRepository } from '../../store/localSiteRepository'
import type { Authenticator } from '../auth'
import { parseLocalSiteHost } from '../localSites'

/**
 * The owner's allow-list of local sites (issue 13 item 3), owner token only (the app's UI):
 * `GET /v1/local-sites` lists `{sites: [{host, createdAt}]}`; `PUT /v1/local-sites/{host}`
 * allows one (201, or 200 when it already was); `DELETE /v1/local-sites/{host}` takes it off
 * (204, 404 `not_found` when it was not on). API keys and OAuth tokens get 403 `forbidden`.
 */
export function registerLocalSiteRoutes(
  app: FastifyInstance,
  deps: { auth: Authenticator; localSites: LocalSiteRepository; clock: () => number },
): void {
  app.get('/v1/local-sites', async (request) => {
    const caller = deps.auth.requireOwner(request)
    return { sites: deps.localSites.list(caller.tenant) }
  })

  app.put<{ Params: { host: string } }>('/v1/local-sites/:host', async (request, reply) => {
    const caller = deps.auth.requireOwner(request)
    const host = parseLocalSiteHost(request.params.host)
    const created = deps.localSites.add(caller.tenant, host, deps.clock())
    const site = deps.localSites.list(caller.tenant).find((s) => s.host === host)!
    return reply.status(created ? 201 : 200).send(site)
  })

  app.delete<{ Params: { host: string } }>('/v1/local-sites/:host', async (request, reply) => {
    const caller = deps.auth.requireOwner(request)
    const host = parseLocalSiteHost(request.params.host)
    if (!deps.localSites.remove(caller.tenant, host))
      throw new ServiceError('not_found', `${host} is not an allowed local site.`)
    return reply.status(204).send()
  })
}
