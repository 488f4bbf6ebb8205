/**
 * The scripted workflows of Monit, in the order they are recorded and checked (all on one
 * instance): the reads first, then the writes, each on its own group of services.
 */
import type { Workflow } from '../../types'
import {
  monitorService,
  restartService,
  startService,
  stopService,
  unmonitorService,
} from './actions'
import { listServices, serviceStatus, viewLog } from './reads'

export const WORKFLOWS: Workflow[] = [
  listServices,
  serviceStatus,
  viewLog,
  stopService,
  startService,
  restartService,
  unmonitorService,
  monitorService,
]
