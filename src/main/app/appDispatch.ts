import { Ajv } from 'ajv'
import { APP_API_INPUT_SCHEMAS, isAppApiMethod, type AppResult } from '../../shared/appApi'
import { isServiceError, ServiceError } from '../../shared/errors'
import type { AppHandlers } from './appHandlers'
import { describeInputProblem } from './inputProblem'

/** Calls one method of the UI contract by name with untrusted input; never throws. */
export type AppDispatch = (method: string, input: unknown) => Promise<AppResult<unknown>>

/**
 * The one entry both UI transports share (IPC in Electron, `/app-api` in web mode): refuses a
 * method not in the contract (`not_found`) and input that fails its schema (`invalid_input`, said
 * in plain sentences by `describeInputProblem`),
 * then wraps the handler's value or error as an `AppResult` (docs/architecture.md "House style": Electron passes only
 * an error's message across `ipcMain.handle`, so errors travel as values).
 */
export function createAppDispatch(
  handlers: AppHandlers,
  onInternalError?: (error: unknown) => void,
): AppDispatch {
  const ajv = new Ajv({ allErrors: true })
  const validators = new Map(
    Object.entries(APP_API_INPUT_SCHEMAS).map(([m, s]) => [m, ajv.compile(s)]),
  )
  return async (method, input) => {
    try {
      if (!isAppApiMethod(method)) throw new ServiceError('not_found', `No app method ${method}.`)
      const value = input ?? {}
      const validate = validators.get(method)!
      if (!validate(value))
        throw new ServiceError('invalid_input', describeInputProblem(validate.errors))
      const handler = handlers[method] as (input: unknown) => Promise<unknown>
      return { ok: true, value: await handler(value) }
    } catch (error) {
      if (isServiceError(error)) return { ok: false, error: error.toBody() }
      onInternalError?.(error)
      return {
        ok: false,
        error: { code: 'internal', message: (error as Error)?.message ?? String(error) },
      }
    }
  }
}
