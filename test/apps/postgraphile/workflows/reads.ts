/**
 * Queries a developer types into GraphiQL and runs: tasks of a project by its name, a title
 * search, a due date filter, the list of projects, and what a person is assigned. Each is one
 * named operation, so GraphiQL sends `operationName` with it; the value typed sits either inline
 * in the query text or in the Query Variables JSON.
 */
import type { Workflow } from '../../types'
import { waitForGraphiql, runAndWait, typeQuery, typeVariables } from '../graphiql'
import { gql, listsTitles, mustPass, operationTarget, resultText } from '../graphql'
import { PEOPLE, PROJECTS, TASKS, type SeedTask } from '../seed'

/**
 * The seeded tasks the reads' checks look for: the delete workflow removes tasks 17–19 on the
 * instance where the checks run, so those never count either way.
 */
const STABLE: SeedTask[] = TASKS.filter((t) => t.id <= 16)

/** Titles of the stable tasks that `keep` accepts, and of the others. */
function split(keep: (t: SeedTask) => boolean): { present: string[]; absent: string[] } {
  return {
    present: STABLE.filter(keep).map((t) => t.title),
    absent: STABLE.filter((t) => !keep(t)).map((t) => t.title),
  }
}

const projectTasksQuery = (name: string): string =>
  `query ProjectTasks { projectByName(name: ${JSON.stringify(name)}) { name tasks { nodes { id title status dueDate } } } }`

/** Types a query for one project's tasks, its name inline as a string argument. */
export const projectTasks: Workflow = {
  id: 'project_tasks',
  intent: 'show all tasks of the Website relaunch project',
  rewordings: {
    terse: 'Website relaunch tasks',
    chatty:
      "I'm catching up on the Website relaunch, could you pull up every task in that project with its status and due date?",
    withoutValue: 'show all tasks of a project',
  },
  startPath: '/graphiql',
  signedIn: false,
  async play(page) {
    await waitForGraphiql(page)
    await typeQuery(page, projectTasksQuery('Website relaunch'))
    await runAndWait(page, 'Set up redirects for old forum')
  },
  key: {
    target: operationTarget('ProjectTasks'),
    inputs: [{ recorded: 'Website relaunch', changed: ['Office move', 'Mobile app'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const name = 'Office move'
      const result = await gql(app, projectTasksQuery(name), null, 'ProjectTasks')
      mustPass(await projectTasks.key.check(app, { status: 'succeeded', result }, session, [name]))
    },
    async check(_app, run, _session, used) {
      const project = PROJECTS.find((p) => p.name === used[0])
      if (!project) return `no seeded project is named ${String(used[0])}`
      const { present, absent } = split((t) => t.projectId === project.id)
      return listsTitles(run.result, present, absent, project.name)
    },
  },
}

const searchQuery = (word: string): string =>
  `query SearchTasks { searchTasks(word: ${JSON.stringify(word)}) { nodes { id title status } } }`

/** Types a call of the `searchTasks` function (SQL `search_tasks`), the word inline. */
export const searchTasks: Workflow = {
  id: 'search_tasks',
  intent: 'find the tasks whose title mentions blog',
  rewordings: {
    terse: 'tasks with blog in the title',
    chatty:
      'There were a couple of tasks about the blog somewhere in the tracker, can you find every task with blog in its title?',
    withoutValue: 'find tasks whose title contains a word',
  },
  startPath: '/graphiql',
  signedIn: false,
  async play(page) {
    await waitForGraphiql(page)
    await typeQuery(page, searchQuery('blog'))
    await runAndWait(page, 'Migrate blog archive')
  },
  key: {
    target: operationTarget('SearchTasks'),
    inputs: [{ recorded: 'blog', changed: ['fix', 'invoice'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const word = 'fix'
      const result = await gql(app, searchQuery(word), null, 'SearchTasks')
      mustPass(await searchTasks.key.check(app, { status: 'succeeded', result }, session, [word]))
    },
    async check(_app, run, _session, used) {
      const word = String(used[0]).toLowerCase()
      const { present, absent } = split((t) => t.title.toLowerCase().includes(word))
      if (!present.length) return `no seeded task has ${word} in its title`
      return listsTitles(run.result, present, absent, `the word ${word}`)
    },
  },
}

const DUE_BEFORE =
  'query DueBefore($day: Date!) { tasksDueBefore(day: $day) { nodes { title dueDate status } } }'

/** Types a query with a `Date!` variable and the day in the Query Variables editor. */
export const tasksDueBefore: Workflow = {
  id: 'tasks_due_before',
  intent: 'which tasks are due before 2026-12-03?',
  rewordings: {
    terse: 'tasks due before 2026-12-03',
    chatty:
      "I'm planning the week, can you tell me every task that is due before the 3rd of December 2026 (2026-12-03)?",
    withoutValue: 'which tasks are due before a day?',
  },
  startPath: '/graphiql',
  signedIn: false,
  async play(page) {
    await waitForGraphiql(page)
    await typeQuery(page, DUE_BEFORE)
    await typeVariables(page, '{"day": "2026-12-03"}')
    await runAndWait(page, 'Label cable boxes')
  },
  key: {
    target: operationTarget('DueBefore'),
    inputs: [{ recorded: '2026-12-03', changed: ['2026-11-25', '2026-12-06'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const day = '2026-11-25'
      const result = await gql(app, DUE_BEFORE, { day }, 'DueBefore')
      mustPass(await tasksDueBefore.key.check(app, { status: 'succeeded', result }, session, [day]))
    },
    async check(_app, run, _session, used) {
      const day = String(used[0])
      const { present, absent } = split((t) => t.due !== null && t.due < day)
      return listsTitles(run.result, present, absent, `tasks due before ${day}`)
    },
  },
}

const PROJECTS_QUERY =
  'query Projects { allProjects(orderBy: NAME_ASC) { nodes { id name description } } }'

/** Types a query for every project: nothing to fill in but the query itself. */
export const listProjects: Workflow = {
  id: 'list_projects',
  intent: 'list all projects in the task tracker',
  rewordings: {
    terse: 'all projects',
    chatty: 'Could you give me the list of every project we track, with their descriptions?',
    withoutValue: 'list the projects',
  },
  startPath: '/graphiql',
  signedIn: false,
  async play(page) {
    await waitForGraphiql(page)
    await typeQuery(page, PROJECTS_QUERY)
    await runAndWait(page, 'Website relaunch')
  },
  key: {
    target: operationTarget('Projects'),
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const result = await gql(app, PROJECTS_QUERY, null, 'Projects')
      mustPass(await listProjects.key.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const missing = PROJECTS.filter((p) => !text.includes(JSON.stringify(p.name)))
      return missing.length
        ? `the result does not list ${missing.map((p) => p.name).join(', ')}`
        : null
    },
  },
}

const PERSON_TASKS =
  'query PersonTasks($email: String!) { personByEmail(email: $email) { name tasks { nodes { title status dueDate } } } }'

/** Types a query by a person's e-mail (a unique column), the address in the variables. */
export const personTasks: Workflow = {
  id: 'person_tasks',
  intent: 'what tasks are assigned to grace@example.org?',
  rewordings: {
    terse: 'tasks of grace@example.org',
    chatty:
      'Grace is out next week, so I need to see everything on her plate: what tasks are assigned to grace@example.org?',
    withoutValue: 'what tasks are assigned to a person?',
  },
  startPath: '/graphiql',
  signedIn: false,
  async play(page) {
    await waitForGraphiql(page)
    await typeQuery(page, PERSON_TASKS)
    await typeVariables(page, '{"email": "grace@example.org"}')
    await runAndWait(page, 'Collect invoices')
  },
  key: {
    target: operationTarget('PersonTasks'),
    inputs: [{ recorded: 'grace@example.org', changed: ['linus@example.org', 'mary@example.org'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const email = 'linus@example.org'
      const result = await gql(app, PERSON_TASKS, { email }, 'PersonTasks')
      mustPass(await personTasks.key.check(app, { status: 'succeeded', result }, session, [email]))
    },
    async check(_app, run, _session, used) {
      const person = PEOPLE.find((p) => p.email === used[0])
      if (!person) return `nobody seeded has the e-mail ${String(used[0])}`
      if (!resultText(run.result).includes(JSON.stringify(person.name)))
        return `the result does not name ${person.name}`
      const { present, absent } = split((t) => t.assigneeId === person.id)
      return listsTitles(run.result, present, absent, person.email)
    },
  },
}
