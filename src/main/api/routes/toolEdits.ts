import type { FastifyInstance } from 'fastify'
import { Type } from '@sinclair/typebox'
import { TOOL_EDIT_SCHEMA, type ToolEdit } from '../../../shared/toolEdit'
import { refuseEndUser } from '../auth'
import { editTool } from '../../surface/toolEdits'
import type { ServerDeps } from '../serverDeps'
import { validBody } from '../routeValidation'
import { routeSchema } from '../../surface/openapi/routeSchema'
import { json } from '../../surface/openapi/docParts'

/** `TOOL_EDIT_SCHEMA` typed as the `ToolEdit` it describes, for the route and its body. */
const TOOL_EDIT_BODY = Type.Unsafe<ToolEdit>(TOOL_EDIT_SCHEMA)

/**
 * `PATCH /v1/tools/{id}` ("the API exposes the same edit"): the body is a
 * `ToolEdit` (src/shared/toolEdit.ts); the answer is `{tool}`, the saved new version, a
 * candidate until its next authorized execution verifies it. Free, like catalog inspection.
 * API keys and the owner token only: no OAuth scope names it (oauth/routeScopes.ts), and an org
 * key's end user is refused (403 `forbidden`): end users call tools, they do not edit them.
 */
export function registerToolEditRoutes(app: FastifyInstance, deps: ServerDeps): void {
  app.patch<{ Params: { id: string } }>(
    '/v1/tools/:id',
    {
      schema: routeSchema({
        summary:
          'Edit a tool: name, description, inputs, headers and body fields of its target request ' +
          '(values may be `{{input.pN}}` or `{{secret:NAME}}`), the verify rule (free). The saved ' +
          'version is a candidate again until its next authorized execution verifies it.',
        tag: 'tools',
        auth: 'key',
        body: { schema: TOOL_EDIT_BODY, required: true },
        responses: { '200': json('`{tool}`: the new version of the tool (its ToolSpec).') },
        errors: ['bad_request', 'unknown_argument', 'invalid_input', 'forbidden', 'not_found'],
      }),
    },
    async (request) => {
      const caller = deps.auth.authenticate(request)
      refuseEndUser(caller, 'edit them')
      const edit = validBody(request, TOOL_EDIT_BODY)
      const tool = editTool(
        {
          store: { tools: deps.store.toolsFor(caller.tenant) },
          vault: deps.vault,
          clock: deps.clock,
        },
        caller.tenant,
        request.params.id,
        edit,
      )
      return { tool }
    },
  )
}
