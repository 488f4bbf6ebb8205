import type { Workflow } from '../../types'

/** Every Redmine workflow of the corpus. */
export const WORKFLOWS: Workflow[] = []
