/** The scripted workflows of graphite-web, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { changeTimeRange, deleteDashboard, saveDashboard, shareGraph } from './dashboards'
import { createEvent, deleteEvent } from './events'
import { findDashboards, findMetrics } from './reads'

// The reads first: find_dashboards lists "Old capacity plan", which delete_dashboard removes.
export const WORKFLOWS: Workflow[] = [
  findMetrics,
  findDashboards,
  shareGraph,
  saveDashboard,
  deleteDashboard,
  changeTimeRange,
  createEvent,
  deleteEvent,
]
