import type { Workflow } from '../types'
export const workflows: Workflow[] = []
