import type { FastifyInstance, FastifyRequest } from 'fastify'
import { checkBody, compileBody } from '../surface/bodyCheck'

/**
 * Makes Fastify validate each route's declared `schema.body` with the service's own Ajv setup
 * (no coercion, no removal, no defaults: a body is taken as sent) and the interface's refusals
 * (`checkBody`: 400 `bad_request`, 422 `unknown_argument`, 400 `invalid_input`). The refusal is
 * attached to the request, not answered at once: the handler raises it with `validBody` after
 * the checks docs/interface.md puts first (authentication, the operation key), so an anonymous caller
 * still gets 401. Queries are checked the same way (`validQuery`); header and path schemas
 * describe the route for the document, their rules are the handlers' own. Answers are serialised as JSON as they are: response schemas
 * describe, they never drop a field ("extra fields may appear", interface.md "Resources").
 */
export function registerRouteValidation(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.attachValidation = true
  })
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if ((httpPart !== 'body' && httpPart !== 'querystring') || refersToComponents(schema))
      return () => true
    const validate = compileBody(schema)
    return (data: unknown) => {
      try {
        checkBody(validate, data)
        return true
      } catch (error) {
        return { error: error as Error }
      }
    }
  })
  app.setSerializerCompiler(() => (data) => JSON.stringify(data))
}

/**
 * The body of a route that declares `schema.body`, once Fastify's validation passed; throws the
 * spec's refusal it attached otherwise (see `registerRouteValidation`). `absent`: what a request
 * without a body stands for, on routes whose body is optional.
 */
export function validBody<T>(request: FastifyRequest, absent?: T): T {
  if (absent !== undefined && (request.body === undefined || request.body === null)) return absent
  raiseRefusal(request)
  return request.body as T
}

/** The query of a route that declares `schema.querystring`, as `validBody` does for bodies. */
export function validQuery<T>(request: FastifyRequest): T {
  raiseRefusal(request)
  return request.query as T
}

/** Throws what validation attached: the interface's refusal (a compiler fault answers as internal). */
function raiseRefusal(request: FastifyRequest): void {
  if (request.validationError) throw request.validationError
}

/** A schema whose `$ref`s point into the document's components (validated by the handler). */
function refersToComponents(schema: unknown): boolean {
  return JSON.stringify(schema).includes('"#/components/')
}
