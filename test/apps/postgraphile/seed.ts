/**
 * The deterministic database behind every PostGraphile instance: a small team task tracker
 * (people, projects, tasks with a status enum, due dates and assignees), every row with a fixed
 * id, plus the two SQL functions PostGraphile exposes as query fields (a title search and a due
 * date filter), since PostGraphile's own `condition` argument only tests equality.
 */

/** A seeded person (a task's assignee). */
export interface SeedPerson {
  id: number
  name: string
  email: string
}

/** A seeded project; its name is unique, so PostGraphile adds `projectByName`. */
export interface SeedProject {
  id: number
  name: string
  description: string
}

/** A task's status: the SQL enum `task_status`, GraphQL enum `TaskStatus` (`TODO`, ...). */
export type TaskStatus = 'todo' | 'doing' | 'done'

/** A seeded task. */
export interface SeedTask {
  id: number
  projectId: number
  title: string
  status: TaskStatus
  /** `YYYY-MM-DD`, or null for a task with no due date. */
  due: string | null
  assigneeId: number | null
}

/** The database PostGraphile serves (created next to the default `postgres` database). */
export const DATABASE = 'tracker'

export const PEOPLE: SeedPerson[] = [
  { id: 1, name: 'Ada Lovelace', email: 'ada@example.org' },
  { id: 2, name: 'Grace Hopper', email: 'grace@example.org' },
  { id: 3, name: 'Linus Pauling', email: 'linus@example.org' },
  { id: 4, name: 'Mary Jackson', email: 'mary@example.org' },
]

export const PROJECTS: SeedProject[] = [
  { id: 1, name: 'Website relaunch', description: 'New company website on the main domain.' },
  { id: 2, name: 'Office move', description: 'Moving the team to the third floor.' },
  { id: 3, name: 'Mobile app', description: 'First release of the iOS and Android app.' },
  { id: 4, name: 'Budget review', description: 'Quarterly spending against the plan.' },
]

export const TASKS: SeedTask[] = [
  // Website relaunch
  {
    id: 1,
    projectId: 1,
    title: 'Fix login redirect',
    status: 'todo',
    due: '2026-12-03',
    assigneeId: 1,
  },
  {
    id: 2,
    projectId: 1,
    title: 'Write launch blog post',
    status: 'doing',
    due: '2026-12-08',
    assigneeId: 2,
  },
  {
    id: 3,
    projectId: 1,
    title: 'Migrate blog archive',
    status: 'todo',
    due: '2026-12-15',
    assigneeId: 3,
  },
  {
    id: 4,
    projectId: 1,
    title: 'Set up redirects for old forum',
    status: 'done',
    due: '2026-11-20',
    assigneeId: 1,
  },
  {
    id: 5,
    projectId: 1,
    title: 'Update privacy policy',
    status: 'todo',
    due: '2027-01-10',
    assigneeId: 4,
  },
  // Office move
  {
    id: 6,
    projectId: 2,
    title: 'Order new chairs',
    status: 'doing',
    due: '2026-12-01',
    assigneeId: 3,
  },
  {
    id: 7,
    projectId: 2,
    title: 'Book moving company',
    status: 'todo',
    due: '2026-11-30',
    assigneeId: 2,
  },
  {
    id: 8,
    projectId: 2,
    title: 'Label cable boxes',
    status: 'todo',
    due: '2026-12-02',
    assigneeId: 4,
  },
  {
    id: 9,
    projectId: 2,
    title: 'Print floor plan',
    status: 'done',
    due: '2026-11-18',
    assigneeId: 3,
  },
  // Mobile app
  {
    id: 10,
    projectId: 3,
    title: 'Design onboarding screens',
    status: 'doing',
    due: '2026-12-12',
    assigneeId: 4,
  },
  {
    id: 11,
    projectId: 3,
    title: 'Fix crash on startup',
    status: 'todo',
    due: '2026-12-05',
    assigneeId: 1,
  },
  {
    id: 12,
    projectId: 3,
    title: 'Submit to app store',
    status: 'todo',
    due: '2027-01-20',
    assigneeId: 2,
  },
  {
    id: 13,
    projectId: 3,
    title: 'Add push notifications',
    status: 'todo',
    due: '2027-02-01',
    assigneeId: 3,
  },
  // Budget review
  {
    id: 14,
    projectId: 4,
    title: 'Collect invoices',
    status: 'doing',
    due: '2026-12-04',
    assigneeId: 2,
  },
  {
    id: 15,
    projectId: 4,
    title: 'Compare spending with plan',
    status: 'todo',
    due: '2026-12-18',
    assigneeId: 1,
  },
  {
    id: 16,
    projectId: 4,
    title: 'Draft budget report',
    status: 'todo',
    due: '2027-01-08',
    assigneeId: 4,
  },
  // Only the delete workflow and its changed runs remove these (no due date, so no date filter
  // sees them come or go).
  {
    id: 17,
    projectId: 1,
    title: 'Remove old newsletter signup',
    status: 'todo',
    due: null,
    assigneeId: 1,
  },
  { id: 18, projectId: 2, title: 'Cancel printer lease', status: 'todo', due: null, assigneeId: 3 },
  { id: 19, projectId: 3, title: 'Retire test server', status: 'todo', due: null, assigneeId: 2 },
]

/** The first id `task_id_seq` hands out, so created tasks get the same ids on every start. */
const FIRST_NEW_TASK_ID = 100

/** The seeded task titled `title`, or throws (a key names only seeded tasks). */
export function seededTask(title: string): SeedTask {
  const task = TASKS.find((t) => t.title === title)
  if (!task) throw new Error(`no seeded task is titled ${title}`)
  return task
}

/** `'text'` as an SQL literal. */
function lit(value: string | number | null): string {
  if (value === null) return 'null'
  return typeof value === 'number' ? String(value) : `'${value.replace(/'/g, "''")}'`
}

/**
 * The whole seed as one SQL script for `psql -f`: schema, PostGraphile smart comments (shorter
 * relation names, as a developer sets them), the two query functions, and the rows.
 */
export function seedSql(): string {
  const rows = (table: string, values: Array<Array<string | number | null>>): string =>
    `insert into ${table} values\n  ${values.map((v) => `(${v.map(lit).join(', ')})`).join(',\n  ')};`
  return [
    "create type task_status as enum ('todo', 'doing', 'done');",
    `create table person (
  id integer primary key,
  name text not null,
  email text not null unique
);`,
    `create table project (
  id integer primary key,
  name text not null unique,
  description text not null default ''
);`,
    `create table task (
  id serial primary key,
  project_id integer not null references project(id),
  title text not null,
  status task_status not null default 'todo',
  due_date date,
  assignee_id integer references person(id)
);`,
    'create index on task (project_id);',
    'create index on task (assignee_id);',
    "comment on table person is 'Somebody on the team.';",
    "comment on table task is 'A piece of work in a project.';",
    "comment on constraint task_project_id_fkey on task is E'@fieldName project\\n@foreignFieldName tasks';",
    "comment on constraint task_assignee_id_fkey on task is E'@fieldName assignee\\n@foreignFieldName tasks';",
    `create function search_tasks(word text) returns setof task as $$
  select * from task where title ilike '%' || word || '%' order by id
$$ language sql stable;`,
    "comment on function search_tasks(text) is 'Tasks whose title contains the word (any case).';",
    `create function tasks_due_before(day date) returns setof task as $$
  select * from task where due_date < day order by due_date, id
$$ language sql stable;`,
    "comment on function tasks_due_before(date) is 'Tasks due before the day, soonest first.';",
    rows(
      'person',
      PEOPLE.map((p) => [p.id, p.name, p.email]),
    ),
    rows(
      'project',
      PROJECTS.map((p) => [p.id, p.name, p.description]),
    ),
    `insert into task (id, project_id, title, status, due_date, assignee_id) values\n  ${TASKS.map(
      (t) => `(${[t.id, t.projectId, t.title, t.status, t.due, t.assigneeId].map(lit).join(', ')})`,
    ).join(',\n  ')};`,
    `select setval('task_id_seq', ${FIRST_NEW_TASK_ID}, false);`,
    '',
  ].join('\n\n')
}
