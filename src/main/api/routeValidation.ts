import type { Static, TSchema } from '@sinclair/typebox'
import { Ajv, type ValidateFunction } from 'ajv'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { checkBody, compileBody } from '../surface/bodyCheck'
import { COMPONENT_SCHEMAS } from '../surface/openapi/components'

/**
 * Makes Fastify validate each route's declared `schema.body` with the service's own Ajv setup
 * (no coercion, no removal, no defaults: a body is taken as sent) and the interface's refusals
 * (`checkBody`: 400 `bad_request`, 422 `unknown_argument`, 400 `invalid_input`). The refusal is
 * attached to the request, not answered at once: the handler raises it with `validBody` after
 * the checks docs/interface.md puts first (authentication, the operation key), so an anonymous caller
 * still gets 401. Queries are checked the same way (`validQuery`); header and path schemas
 * describe the route for the document, their rules are the handlers' own. A schema that points
 * into the document's components (`$ref: '#/components/schemas/<name>'`) is checked against
 * them (`componentValidator`). Answers are serialised as JSON as they are: response schemas
 * describe, they never drop a field ("extra fields may appear", interface.md "Resources").
 */
export function registerRouteValidation(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.attachValidation = true
  })
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart !== 'body' && httpPart !== 'querystring') return () => true
    const validate = validatorFor(schema)
    return (data: unknown) => {
      try {
        checkBody(validate, data)
        return true
      } catch (error) {
        return { error: error instanceof Error ? error : new Error(String(error)) }
      }
    }
  })
  app.setSerializerCompiler(() => (data) => JSON.stringify(data))
}

/**
 * The body of a route that declares `schema` as its `schema.body`, once Fastify's validation
 * passed, typed by that schema; throws the interface's refusal validation attached otherwise
 * (see `registerRouteValidation`). The body is checked against `schema` here too (the same
 * compiled validator), so the type is the schema's whatever the route declared. `absent`: what
 * a request without a body stands for, on routes whose body is optional.
 */
export function validBody<S extends TSchema>(
  request: FastifyRequest,
  schema: S,
  absent?: Static<S>,
): Static<S> {
  if (absent !== undefined && (request.body === undefined || request.body === null)) return absent
  raiseRefusal(request)
  return checkBody<Static<S>>(validatorFor(schema), request.body)
}

/** The query of a route that declares `schema` as its `schema.querystring`, as `validBody` does for bodies. */
export function validQuery<S extends TSchema>(request: FastifyRequest, schema: S): Static<S> {
  raiseRefusal(request)
  return checkBody<Static<S>>(validatorFor(schema), request.query)
}

/** Throws what validation attached: the interface's refusal (a compiler fault answers as internal). */
function raiseRefusal(request: FastifyRequest): void {
  if (request.validationError) throw request.validationError
}

/** The compiled check of a route schema: against the document's components when it points into them. */
function validatorFor(schema: object): ValidateFunction {
  return refersToComponents(schema) ? componentValidator(schema) : compileBody(schema)
}

/** A schema whose `$ref`s point into the document's components. */
function refersToComponents(schema: unknown): boolean {
  return JSON.stringify(schema).includes('"#/components/')
}

let componentAjv: Ajv | null = null
const componentValidators = new WeakMap<object, ValidateFunction>()

/**
 * Compiles a schema with `$ref`s into the document's components (`COMPONENT_SCHEMAS`), each
 * registered under the reference the document gives it, so such a body is validated like any
 * other (same Ajv options as `compileBody`: all errors, no coercion).
 */
function componentValidator(schema: object): ValidateFunction {
  let validate = componentValidators.get(schema)
  if (validate) return validate
  if (!componentAjv) {
    componentAjv = new Ajv({ allErrors: true, strict: false })
    for (const [name, component] of Object.entries(COMPONENT_SCHEMAS))
      componentAjv.addSchema(component, `#/components/schemas/${name}`)
  }
  validate = componentAjv.compile(schema)
  componentValidators.set(schema, validate)
  return validate
}
