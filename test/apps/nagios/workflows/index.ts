/**
 * The scripted workflows of Nagios, in the order they are recorded and checked (all on one
 * instance): the reads first, then the commands, none of which touches what another one checks.
 */
import type { Workflow } from '../../types'
import {
  acknowledgeService,
  addHostComment,
  deleteComment,
  disableServiceNotifications,
  rescheduleCheck,
  scheduleHostDowntime,
} from './commands'
import { searchHost, serviceProblems } from './reads'

export const WORKFLOWS: Workflow[] = [
  searchHost,
  serviceProblems,
  scheduleHostDowntime,
  acknowledgeService,
  disableServiceNotifications,
  addHostComment,
  deleteComment,
  rescheduleCheck,
]
