/**
 * What the answer keys send by hand, as a developer with curl would: `POST /graphql` with a JSON
 * body `{query, variables, operationName}` (what GraphiQL sends), anonymous, and the reads of the
 * database's state that the write checks use.
 */
import type { AppInstance, RequestKey } from '../types'
import type { TaskStatus } from './seed'

/** The request a workflow's named operation goes out as: `POST /graphql` with its name. */
export function operationTarget(operationName: string): RequestKey {
  return {
    method: 'POST',
    path: '/graphql',
    operation: { field: 'operationName', value: operationName },
  }
}

/** A GraphQL answer: data and/or errors. */
interface GraphqlAnswer {
  data?: Record<string, unknown> | null
  errors?: Array<{ message: string }>
}

/**
 * Sends one operation as GraphiQL does and returns the answer; throws when the server answers
 * with an HTTP error or GraphQL errors (a key only sends operations that must work).
 */
export async function gql(
  app: AppInstance,
  query: string,
  variables: Record<string, unknown> | null = null,
  operationName: string | null = null,
): Promise<Record<string, unknown>> {
  const res = await app.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query, variables, operationName }),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`POST /graphql answered ${res.status}: ${text.slice(0, 300)}`)
  const answer = JSON.parse(text) as GraphqlAnswer
  if (answer.errors?.length) throw new Error(`GraphQL errors: ${answer.errors[0]!.message}`)
  return answer.data ?? {}
}

/** A task as the checks read it back. */
export interface TaskRow {
  id: number
  nodeId: string
  title: string
  /** GraphQL's enum value: `TODO`, `DOING`, `DONE`. */
  status: string
  dueDate: string | null
  projectId: number
  assigneeId: number | null
}

/** Every task titled `title` (titles are not unique in the schema: a create could repeat one). */
export async function tasksTitled(app: AppInstance, title: string): Promise<TaskRow[]> {
  const data = await gql(
    app,
    'query ($title: String!) { allTasks(condition: {title: $title}, orderBy: ID_ASC) { nodes { id nodeId title status dueDate projectId assigneeId } } }',
    { title },
  )
  return (data['allTasks'] as { nodes: TaskRow[] }).nodes
}

/** The GraphQL enum value of a seeded status (`todo` → `TODO`). */
export function statusValue(status: TaskStatus): string {
  return status.toUpperCase()
}

/** A run's result as one searchable string, whatever shape the engine gave it. */
export function resultText(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result ?? null)
}

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

/**
 * A read's check: null when the result names every title of `present` and none of `absent`,
 * else what is wrong. Titles are looked for as JSON strings (`"Order new chairs"`), so a title
 * inside a longer one does not count.
 */
export function listsTitles(
  result: unknown,
  present: string[],
  absent: string[],
  what: string,
): string | null {
  const text = resultText(result)
  const missing = present.filter((t) => !text.includes(JSON.stringify(t)))
  if (missing.length) return `the result for ${what} does not list ${missing.join(', ')}`
  const extra = absent.filter((t) => text.includes(JSON.stringify(t)))
  if (extra.length) return `the result for ${what} also lists ${extra.join(', ')}`
  return null
}
