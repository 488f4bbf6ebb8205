import type { Workflow } from '../../types'
import { listProjects, personTasks, projectTasks, searchTasks, tasksDueBefore } from './reads'
import { createTask, deleteTaskWorkflow, updateTaskStatus } from './writes'

/**
 * The scripted workflows, in the order the corpus plays them on one instance: the reads first
 * (so they see the seed as it is), then the writes.
 */
export const WORKFLOWS: Workflow[] = [
  projectTasks,
  searchTasks,
  tasksDueBefore,
  listProjects,
  personTasks,
  createTask,
  updateTaskStatus,
  deleteTaskWorkflow,
]
