import { SEED_PACKAGES, type PackageSeed } from '../../fixtures/sites/verdaccio'

/** The registry's user; the password is fixed so stored traces and saved logins stay valid. */
export const USER = { name: 'ada', password: 'verdaccio-Ada-2026' }

/** Packages only a signed-in user can see (the `@team` scope is `$authenticated`). */
export const TEAM_RULES = {
  '@team/*': { access: '$authenticated', publish: '$authenticated', unpublish: '$authenticated' },
}

/** The private package the signed-in package list shows and an anonymous one hides. */
export const PRIVATE_PACKAGE: PackageSeed = {
  name: '@team/billing-core',
  version: '3.1.0',
  description: 'Invoices and payment runs for the team',
  keywords: ['billing', 'internal'],
  readme: '# @team/billing-core\n\nInternal billing helpers.\n',
}

/**
 * An older release of lunar-phase, published before the seed's 1.2.0, so its versions list has
 * two entries and the person can open the older one.
 */
const OLD_LUNAR_PHASE: PackageSeed = {
  name: 'lunar-phase',
  version: '1.1.0',
  description: 'Phase of the moon for a given date (old)',
  keywords: ['moon'],
  readme: '# lunar-phase\n\nThe first release: phases only.\n',
}

/** Everything published on each start, in this order (same names and versions every time). */
export const PACKAGES: PackageSeed[] = [OLD_LUNAR_PHASE, ...SEED_PACKAGES, PRIVATE_PACKAGE]
