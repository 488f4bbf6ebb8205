import { describe, expect, it } from 'vitest'
import { checkContract, compileBody } from '../../../src/main/surface/bodyCheck'
import {
  KEY_BODY_SCHEMA,
  PREPARE_BODY_SCHEMA,
  SCOPE_BODY_SCHEMA,
} from '../../../src/shared/accountApiSchemas'
import { isServiceError } from '../../../src/shared/errors'

/** The refusal checkContract throws for `input`, as `{code, status, message}`, or null. */
function refusal(schema: object, input: unknown) {
  try {
    checkContract(schema, input)
    return null
  } catch (error) {
    if (!isServiceError(error)) throw error
    return { code: error.code, status: error.status, message: error.message }
  }
}

describe('checking a body against its contract of src/shared', () => {
  it('takes a body that keeps the contract as it is', () => {
    const body = { slug: 'dir-only', apps: ['a.example'] }
    expect(checkContract(SCOPE_BODY_SCHEMA, body)).toBe(body)
    expect(refusal(KEY_BODY_SCHEMA, {})).toBeNull()
  })

  it('answers 400 bad_request for a body that is not an object (interface.md "Request shape")', () => {
    for (const input of [null, [1], 'text', 3])
      expect(refusal(KEY_BODY_SCHEMA, input)).toMatchObject({ code: 'bad_request', status: 400 })
  })

  it('answers 422 unknown_argument for a field the contract does not name, listing the valid ones', () => {
    expect(refusal(KEY_BODY_SCHEMA, { label: 'x', colour: 'red' })).toEqual({
      code: 'unknown_argument',
      status: 422,
      message: 'Unknown field colour. Valid: label, kind.',
    })
  })

  it("answers with a field's own message (x-message), missing or malformed", () => {
    expect(refusal(KEY_BODY_SCHEMA, { kind: 'admin' })).toEqual({
      code: 'invalid_input',
      status: 400,
      message: '"kind" is "personal" or "org".',
    })
    const noIntent = { trace_id: 'trc_1', request_id: 'exc_1' }
    expect(refusal(PREPARE_BODY_SCHEMA, noIntent)?.message).toBe(
      '"intent" is required: a non-empty string of at most 2000 characters.',
    )
    expect(refusal(PREPARE_BODY_SCHEMA, { ...noIntent, intent: '   ' })?.message).toBe(
      '"intent" is required: a non-empty string of at most 2000 characters.',
    )
  })

  it("answers with the contract's own code (x-refusal): a bad scope is invalid_scope", () => {
    expect(refusal(SCOPE_BODY_SCHEMA, { slug: 'Dir', apps: ['a'] })).toEqual({
      code: 'invalid_scope',
      status: 400,
      message: '"slug" takes 1 to 40 lowercase letters, digits or dashes.',
    })
    expect(refusal(SCOPE_BODY_SCHEMA, { slug: 'x', apps: ['two words'] })?.code).toBe(
      'invalid_scope',
    )
  })

  it('compiles a contract once, whoever checks it', () => {
    expect(compileBody(SCOPE_BODY_SCHEMA)).toBe(compileBody(SCOPE_BODY_SCHEMA))
  })
})
