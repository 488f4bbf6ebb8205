import type { Workflow } from '../types'

/** The scripted workflows, in the order the corpus plays them. */
export const WORKFLOWS: Workflow[] = []
