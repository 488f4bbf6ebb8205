/**
 * The seed data of every Redmine instance, in one place: `seed.rb` reads it (as JSON in an env
 * variable) to fill the template database, and workflows and answer keys use the same names and
 * ids. Records are created in this order, so their ids are fixed: issue N below has id N.
 */

/** The account every workflow signs in as (Redmine's built-in admin, password reset by the seed). */
export const ADMIN = { name: 'admin', password: 'sitecall-redmine-admin' }

/**
 * Two more people, members of both projects. Robin signs in with a second factor: Redmine's
 * built-in TOTP, paired with a fixed key so the scripted person can compute the codes.
 */
export const PEOPLE = [
  { login: 'dkim', password: 'dana-kim-secret-1', firstname: 'Dana', lastname: 'Kim', totp: null },
  {
    login: 'rlee',
    password: 'robin-lee-secret-2',
    firstname: 'Robin',
    lastname: 'Lee',
    totp: 'ROBINLEESITECALLREDMINETOTPKEY23',
  },
] as const

/** Redmine's default trackers and statuses (from `redmine:load_default_data`, language en). */
export const TRACKER = { bug: 1, feature: 2, support: 3 } as const
export const STATUS = {
  new: 1,
  inProgress: 2,
  resolved: 3,
  feedback: 4,
  closed: 5,
  rejected: 6,
} as const

/** Projects, in creation order (ids 1, 2). */
const PROJECTS = [
  { identifier: 'website', name: 'Website', description: 'The public company website.' },
  { identifier: 'mobile-app', name: 'Mobile App', description: 'The iOS and Android app.' },
] as const

export interface IssueSeed {
  project: string
  tracker: number
  status: number
  subject: string
  description: string
  assignee?: string
}

/** Issues, in creation order: `ISSUES[i]` gets id i + 1. */
export const ISSUES: IssueSeed[] = [
  {
    project: 'website',
    tracker: TRACKER.bug,
    status: STATUS.new,
    subject: 'Login page times out on slow networks',
    description: 'On a throttled 3G connection the login form gives up after ten seconds.',
    assignee: 'dkim',
  },
  {
    project: 'website',
    tracker: TRACKER.feature,
    status: STATUS.inProgress,
    subject: 'Add dark mode to the header',
    description: 'The header should follow the visitor’s colour scheme preference.',
  },
  {
    project: 'website',
    tracker: TRACKER.bug,
    status: STATUS.resolved,
    subject: 'Broken link in the footer',
    description: 'The careers link in the footer answers 404.',
    assignee: 'rlee',
  },
  {
    project: 'website',
    tracker: TRACKER.support,
    status: STATUS.new,
    subject: 'Update the privacy policy text',
    description: 'Legal sent new wording for the cookie section.',
  },
  {
    project: 'website',
    tracker: TRACKER.bug,
    status: STATUS.new,
    subject: 'Search results show duplicate entries',
    description: 'Searching for pricing lists the same page twice.',
    assignee: 'dkim',
  },
  {
    project: 'website',
    tracker: TRACKER.feature,
    status: STATUS.new,
    subject: 'Newsletter signup form on the blog',
    description: 'A small form under each blog post that adds the reader to the newsletter.',
  },
  {
    project: 'website',
    tracker: TRACKER.support,
    status: STATUS.feedback,
    subject: 'Customer asks for an invoice archive',
    description: 'A customer wants to download all invoices of last year at once.',
  },
  {
    project: 'mobile-app',
    tracker: TRACKER.bug,
    status: STATUS.new,
    subject: 'Crash when rotating the screen',
    description: 'The app closes when the phone turns to landscape on the settings page.',
    assignee: 'rlee',
  },
  {
    project: 'mobile-app',
    tracker: TRACKER.feature,
    status: STATUS.inProgress,
    subject: 'Push notifications for replies',
    description: 'Notify the user when someone answers their comment.',
  },
]

/** Everything `seed.rb` needs, as the JSON it reads from `SITECALL_SEED`. */
export function seedJson(): string {
  return JSON.stringify({ admin: ADMIN, people: PEOPLE, projects: PROJECTS, issues: ISSUES })
}
