/**
 * Mutations a developer types into GraphiQL: a create with several variables, and a status
 * change and a delete of a task picked by its title. For the last two the developer first runs a
 * query for the task by title, reads its `id` (or Relay `nodeId`) off the result pane and types
 * it into the mutation, so a tool needs that query's answer before the mutation.
 */
import type { AppInstance, Workflow } from '../../types'
import { readField, runAndWait, typeQuery, typeVariables, waitForGraphiql } from '../graphiql'
import { gql, mustPass, operationTarget, statusValue, tasksTitled } from '../graphql'
import { seededTask } from '../seed'

const CREATE_TASK =
  'mutation CreateTask($title: String!, $due: Date!, $project: Int!, $assignee: Int) { createTask(input: {task: {title: $title, dueDate: $due, projectId: $project, assigneeId: $assignee}}) { task { id title status dueDate } } }'
/** The Mobile app project and Mary Jackson, by the ids the developer typed. */
const CREATE_PROJECT = 3
const CREATE_ASSIGNEE = 4

/** Types the mutation with four variables and their values, then runs it. */
export const createTask: Workflow = {
  id: 'create_task',
  intent:
    "create a task 'Write release notes' due 2026-12-14 in the Mobile app project, assigned to Mary",
  rewordings: {
    terse: "new Mobile app task 'Write release notes' due 2026-12-14 for Mary",
    chatty:
      "We forgot the release notes for the app: could you add a task called 'Write release notes' to the Mobile app project, due on 2026-12-14, and give it to Mary?",
    withoutValue: 'create a task in the Mobile app project for Mary',
  },
  startPath: '/graphiql',
  signedIn: false,
  async play(page) {
    await waitForGraphiql(page)
    await typeQuery(page, CREATE_TASK)
    await typeVariables(
      page,
      `{"title": "Write release notes", "due": "2026-12-14", "project": ${CREATE_PROJECT}, "assignee": ${CREATE_ASSIGNEE}}`,
    )
    await runAndWait(page, '"createTask"')
  },
  key: {
    target: operationTarget('CreateTask'),
    inputs: [
      { recorded: 'Write release notes', changed: ['Plan beta test', 'Translate store listing'] },
      { recorded: '2026-12-14', changed: ['2026-12-16', '2026-12-19'] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const [title, due] = ['Plan beta test', '2026-12-16']
      const variables = { title, due, project: CREATE_PROJECT, assignee: CREATE_ASSIGNEE }
      const result = await gql(app, CREATE_TASK, variables, 'CreateTask')
      mustPass(
        await createTask.key.check(app, { status: 'succeeded', result }, session, [title, due]),
      )
    },
    async check(app, _run, _session, used) {
      const [title, due] = [String(used[0]), String(used[1])]
      const found = await tasksTitled(app, title)
      if (found.length !== 1) return `${found.length} tasks are titled ${title}, not 1`
      const task = found[0]!
      if (task.dueDate !== due) return `${title} is due ${String(task.dueDate)}, not ${due}`
      if (task.projectId !== CREATE_PROJECT)
        return `${title} is in project ${task.projectId}, not Mobile app`
      if (task.assigneeId !== CREATE_ASSIGNEE)
        return `${title} is assigned to ${String(task.assigneeId)}, not Mary`
      // The recorded title must not have been created again instead.
      const recorded = await tasksTitled(app, 'Write release notes')
      return recorded.length
        ? 'a task titled Write release notes (the recorded one) was created'
        : null
    },
  },
}

const findTask = (title: string): string =>
  `query FindTask { allTasks(condition: {title: ${JSON.stringify(title)}}) { nodes { id title status } } }`
const markDone = (id: string | number): string =>
  `mutation MarkDone { updateTaskById(input: {id: ${id}, taskPatch: {status: DONE}}) { task { id title status } } }`

/** The recorded task of the status change, and the one of the delete. */
const DONE_TASK = 'Label cable boxes'
const DELETED_TASK = 'Remove old newsletter signup'

/** The status of the only task titled `title`, or what is wrong. */
async function statusOf(app: AppInstance, title: string): Promise<string> {
  const found = await tasksTitled(app, title)
  return found.length === 1 ? found[0]!.status : `${found.length} tasks titled ${title}`
}

/**
 * Finds the task by its title (a `condition` on `allTasks`), reads its id off the result and
 * types a mutation that sets its status to DONE (a GraphQL enum value, typed bare).
 */
export const updateTaskStatus: Workflow = {
  id: 'update_task_status',
  intent: `mark the task '${DONE_TASK}' as done`,
  rewordings: {
    terse: `'${DONE_TASK}' done`,
    chatty: `Linus finished labelling yesterday, so please set the task '${DONE_TASK}' to done in the tracker.`,
    withoutValue: 'mark a task as done',
  },
  startPath: '/graphiql',
  signedIn: false,
  async play(page) {
    await waitForGraphiql(page)
    await typeQuery(page, findTask(DONE_TASK))
    const found = await runAndWait(page, DONE_TASK)
    await typeQuery(page, markDone(readField(found, 'id')))
    await runAndWait(page, '"updateTaskById"')
  },
  key: {
    target: operationTarget('MarkDone'),
    inputs: [{ recorded: DONE_TASK, changed: ['Migrate blog archive', 'Add push notifications'] }],
    // The task's id, looked up by the title the person picked.
    dependencies: [operationTarget('FindTask')],
    mutating: true,
    async replayByHand(app, session) {
      const title = 'Migrate blog archive'
      const found = await gql(app, findTask(title), null, 'FindTask')
      const id = (found['allTasks'] as { nodes: Array<{ id: number }> }).nodes[0]?.id
      if (id === undefined) throw new Error(`FindTask found no ${title}`)
      const result = await gql(app, markDone(id), null, 'MarkDone')
      mustPass(
        await updateTaskStatus.key.check(app, { status: 'succeeded', result }, session, [title]),
      )
    },
    async check(app, _run, _session, used) {
      const title = String(used[0])
      const status = await statusOf(app, title)
      if (status !== 'DONE') return `${title} is ${status}, not DONE`
      const before = statusValue(seededTask(DONE_TASK).status)
      const recorded = await statusOf(app, DONE_TASK)
      return recorded === before
        ? null
        : `${DONE_TASK} (the recorded task) is ${recorded}, not ${before}`
    },
  },
}

const findTaskNode = (title: string): string =>
  `query FindTaskToDelete { allTasks(condition: {title: ${JSON.stringify(title)}}) { nodes { nodeId title dueDate } } }`
const deleteTask = (nodeId: string): string =>
  `mutation DeleteTask { deleteTask(input: {nodeId: ${JSON.stringify(nodeId)}}) { deletedTaskId } }`

/**
 * Finds the task by its title, reads its Relay `nodeId` (base64 of `["tasks", id]`) off the
 * result and types the delete mutation that takes it.
 */
export const deleteTaskWorkflow: Workflow = {
  id: 'delete_task',
  intent: `delete the task '${DELETED_TASK}'`,
  rewordings: {
    terse: `delete '${DELETED_TASK}'`,
    chatty: `We dropped the newsletter idea, so the task '${DELETED_TASK}' can go: could you delete it from the tracker?`,
    withoutValue: 'delete a task',
  },
  startPath: '/graphiql',
  signedIn: false,
  async play(page) {
    await waitForGraphiql(page)
    await typeQuery(page, findTaskNode(DELETED_TASK))
    const found = await runAndWait(page, DELETED_TASK)
    await typeQuery(page, deleteTask(readField(found, 'nodeId')))
    await runAndWait(page, '"deletedTaskId"')
  },
  key: {
    target: operationTarget('DeleteTask'),
    inputs: [{ recorded: DELETED_TASK, changed: ['Cancel printer lease', 'Retire test server'] }],
    // The task's nodeId, looked up by the title the person picked.
    dependencies: [operationTarget('FindTaskToDelete')],
    mutating: true,
    async replayByHand(app, session) {
      const title = 'Cancel printer lease'
      const found = await gql(app, findTaskNode(title), null, 'FindTaskToDelete')
      const nodeId = (found['allTasks'] as { nodes: Array<{ nodeId: string }> }).nodes[0]?.nodeId
      if (!nodeId) throw new Error(`FindTaskToDelete found no ${title}`)
      const result = await gql(app, deleteTask(nodeId), null, 'DeleteTask')
      mustPass(
        await deleteTaskWorkflow.key.check(app, { status: 'succeeded', result }, session, [title]),
      )
    },
    async check(app, _run, _session, used) {
      const title = String(used[0])
      const left = await tasksTitled(app, title)
      if (left.length) return `${title} still exists`
      const recorded = await tasksTitled(app, DELETED_TASK)
      return recorded.length === 1 ? null : `${DELETED_TASK} (the recorded task) was deleted`
    },
  },
}
