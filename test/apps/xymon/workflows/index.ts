/**
 * The scripted workflows of Xymon, in the order they are recorded and checked (all on one
 * instance): the reads first, then the admin writes, none of which touches what another one
 * checks (each works on its own hosts and tests, see NOTES.md).
 */
import type { Workflow } from '../../types'
import {
  acknowledgeAlert,
  cancelScheduledDisable,
  disableTest,
  editCritical,
  enableTest,
} from './admin'
import { eventLog, findHosts, testHistory } from './reads'

export const WORKFLOWS: Workflow[] = [
  findHosts,
  eventLog,
  testHistory,
  disableTest,
  enableTest,
  cancelScheduledDisable,
  acknowledgeAlert,
  editCritical,
]
