import type { Workflow } from '../types'
import { triggerInject } from './inject'
import { exportToLibrary } from './library'
import { login } from './login'
import { findNode } from './search'
import { disableFlowTab, renameFlowTab } from './tabs'

/**
 * The scripted workflows, in the order the corpus plays them on one instance: reads and the
 * inject first, then the deploys (each deploy changes `rev`, and the later one carries the
 * earlier one's change in its body).
 */
export const WORKFLOWS: Workflow[] = [
  login,
  triggerInject,
  findNode,
  exportToLibrary,
  renameFlowTab,
  disableFlowTab,
]
