import type { Workflow } from '../types'
export const WORKFLOWS: Workflow[] = []
