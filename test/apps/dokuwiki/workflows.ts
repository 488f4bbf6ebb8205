/** The scripted workflows of DokuWiki, in the order they are recorded. */
import type { Workflow } from '../types'

export const WORKFLOWS: Workflow[] = []
