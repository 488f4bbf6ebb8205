/**
 * The scripted workflows of Prometheus, in the order they are recorded (all on one instance):
 * the graph page's queries first, then the server-rendered status pages. All of them only read.
 */
import type { Workflow } from '../../types'
import { showAlerts, showDownTargets, showRules } from './pages'
import { graphLastHour, graphPastWindow, listMetricNames, runQuery } from './queries'

export const WORKFLOWS: Workflow[] = [
  runQuery,
  graphLastHour,
  graphPastWindow,
  listMetricNames,
  showDownTargets,
  showAlerts,
  showRules,
]
