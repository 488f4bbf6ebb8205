/**
 * The scripted workflows of Tomcat, in the order they are recorded and checked (all on one
 * instance): the reads first, so the writes after them cannot change what they show; every write
 * acts on its own apps or hosts.
 */
import type { Workflow } from '../../types'
import {
  deployWar,
  expireSessions,
  reloadApplication,
  startApplication,
  stopApplication,
  undeployApplication,
} from './apps'
import { addVirtualHost, removeVirtualHost } from './hosts'
import { listApplications, serverStatus } from './reads'

export const WORKFLOWS: Workflow[] = [
  listApplications,
  serverStatus,
  stopApplication,
  startApplication,
  reloadApplication,
  undeployApplication,
  expireSessions,
  deployWar,
  addVirtualHost,
  removeVirtualHost,
]
