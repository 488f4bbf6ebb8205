/**
 * Issue 24 kinds 3 and 4 for GraphQL written inline (a GraphiQL console): the value the person
 * gave becomes an input written into the query text as a GraphQL string, the short id the first
 * query found is looked up by that value and written as a number, a long id is read from the
 * answer that held it; the editor text the page keeps in localStorage is not a login.
 */
import { describe, expect, it } from 'vitest'
import { parse } from 'graphql'
import { compileTrace } from '../../../src/main/compiler'
import { renderRequest } from '../../../src/main/engine/template'
import { textAt } from '../../../src/shared/jsonPath'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000c4', now: Date.UTC(2026, 10, 29) }

const FOUND = {
  data: {
    allTasks: { nodes: [{ id: 8, title: 'Label cable boxes', nodeId: 'WyJ0YXNrcyIsOF0=' }] },
  },
}

function consoleTrace(intent: string, mutation: string, answer: unknown): Trace {
  const find =
    'query FindTask { allTasks(condition: {title: "Label cable boxes"}) { nodes { id title nodeId } } }'
  const trace = traceBuilder('http://127.0.0.1:5000')
    .click('Execute Query')
    .exchange('POST', '/graphql', {
      body: { query: find, variables: null, operationName: 'FindTask' },
      response: FOUND,
    })
    .click('Execute Query')
    .exchange('POST', '/graphql', {
      body: { query: mutation, variables: null, operationName: 'Change' },
      response: answer,
    })
    .build(intent)
  // The console keeps the editor's text in localStorage, as GraphiQL does.
  trace.storageState = {
    cookies: [],
    origins: [
      {
        origin: 'http://127.0.0.1:5000',
        localStorage: [{ name: 'graphiql:query', value: mutation }],
      },
    ],
  }
  return trace
}

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

describe('a GraphQL mutation written with its values inline', () => {
  const tool = compiled(
    consoleTrace(
      "mark the task 'Label cable boxes' as done",
      'mutation Change { updateTaskById(input: {id: 8, taskPatch: {status: DONE}}) { task { id status } } }',
      { data: { updateTaskById: { task: { id: 8, status: 'DONE' } } } },
    ),
  )
  const [find, target] = tool.steps
  const queryOf = (s: typeof find) =>
    (s!.request.body as { template: { query: string } }).template.query

  it('makes the named value an input, written into the first query, and no login of the editor text', () => {
    expect(Object.keys(tool.inputs.properties)).toEqual(['title'])
    expect(queryOf(find)).toContain('condition: {title: {{json:input.p0}}}')
    expect(JSON.stringify(tool)).not.toContain('login.')
  })

  it('looks the short id up by that value and writes it as a number', () => {
    const extractor = find!.extract[0]!
    expect(extractor.path).toBe('data.allTasks.nodes[?title=={{input.p0}}].id')
    expect(textAt(FOUND, extractor.path, { 'input.p0': 'Label cable boxes' })).toBe('8')
    const rendered = renderRequest(target!.request, {
      [`step.${find!.id}.${extractor.name}`]: '12',
    })
    const query = JSON.parse(rendered.body as string).query as string
    expect(query).toContain('input: {id: 12,')
    expect(() => parse(query)).not.toThrow()
  })

  it('writes a person value with quotes and escapes a GraphQL string accepts', () => {
    const rendered = renderRequest(find!.request, { 'input.p0': 'Say "hi"\\now' })
    const query = JSON.parse(rendered.body as string).query as string
    expect(query).toContain('{title: "Say \\"hi\\"\\\\now"}')
    expect(() => parse(query)).not.toThrow()
  })
})

describe('a long id the first answer held', () => {
  const tool = compiled(
    consoleTrace(
      "delete the task 'Label cable boxes'",
      'mutation Change { deleteTask(input: {nodeId: "WyJ0YXNrcyIsOF0="}) { deletedTaskId } }',
      { data: { deleteTask: { deletedTaskId: 'WyJ0YXNrcyIsOF0=' } } },
    ),
  )

  it('is read from that answer and written as a GraphQL string', () => {
    const [find, target] = tool.steps
    const extractor = find!.extract[0]!
    expect(textAt(FOUND, extractor.path)).toBe('WyJ0YXNrcyIsOF0=')
    const rendered = renderRequest(target!.request, {
      [`step.${find!.id}.${extractor.name}`]: 'WyJ4Il0=',
    })
    expect(JSON.parse(rendered.body as string).query).toContain('{nodeId: "WyJ4Il0="}')
  })
})
