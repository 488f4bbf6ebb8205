/**
 * The scripted workflows of Supervisor, in the order they are recorded and checked (all on one
 * instance): the reads first, then the writes on one program each (each on its own set of
 * programs), then the two buttons that touch every program.
 */
import type { Workflow } from '../../types'
import { clearLog, restartProgram, startProgram, stopProgram } from './actions'
import { restartAll, stopAll } from './all'
import { listPrograms, tailLog } from './reads'

export const WORKFLOWS: Workflow[] = [
  listPrograms,
  tailLog,
  stopProgram,
  startProgram,
  restartProgram,
  clearLog,
  restartAll,
  stopAll,
]
