/**
 * A command typed whole into one field of a console (`expire session:abc 3600`): the words the
 * intent names become inputs of their own and the verb stays as typed, so a caller gives the key
 * and the seconds, not a command line.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { renderRequest } from '../../../src/main/engine/template'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000c9', now: Date.UTC(2026, 10, 29) }

function consoleTrace(command: string, intent: string) {
  return traceBuilder('http://127.0.0.1:8081')
    .fill(command, { name: 'cmd', label: 'Command' })
    .submit()
    .exchange('POST', '/apiv2/exec/local', {
      form: new URLSearchParams({ cmd: command }).toString(),
      response: { data: 1 },
      type: 'xhr',
    })
    .build(intent)
}

describe('a command typed whole into one field', () => {
  it('makes each argument the intent names an input and keeps the verb', () => {
    const result = compileTrace(
      consoleTrace('expire session:abc 3600', 'make the key session:abc expire in 3600 seconds'),
      options,
    )
    if (!result.ok) throw new Error(result.explanation.reason)
    const { inputs, steps } = result.candidate
    expect(Object.keys(inputs.properties)).toEqual(['cmd_arg2', 'cmd_arg3'])
    expect(inputs.required).toEqual(['cmd_arg2', 'cmd_arg3'])
    expect(inputs.properties.cmd_arg2?.default).toBe('session:abc')
    const target = steps.at(-1)!
    const scope = {
      [`input.${inputs.properties.cmd_arg2!['x-slot']}`]: 'user:42',
      [`input.${inputs.properties.cmd_arg3!['x-slot']}`]: '60',
    }
    expect(new URLSearchParams(renderRequest(target.request, scope).body!).get('cmd')).toBe(
      'expire user:42 60',
    )
  })

  it('leaves a command whose words the intent does not spell as one input', () => {
    const result = compileTrace(
      consoleTrace('expire session:abc 3600', 'run the command I typed'),
      options,
    )
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(Object.keys(result.candidate.inputs.properties)).toEqual(['cmd'])
  })
})
