/**
 * The scripted workflows of HAProxy, in the order they are recorded and checked (all on one
 * instance): the reads first, so the writes before them cannot change what they show.
 */
import type { Workflow } from '../../types'
import { disableHealthChecks, drainServer, maintServer, readyServer } from './actions'
import { exportCsv, exportJson, hideDownServers, scopeBackend } from './reads'

export const WORKFLOWS: Workflow[] = [
  scopeBackend,
  exportCsv,
  exportJson,
  hideDownServers,
  maintServer,
  drainServer,
  readyServer,
  disableHealthChecks,
]
