/**
 * The scripted workflows of CUPS, in the order they are recorded and checked (all on one
 * instance): the reads first, so the writes before them cannot change what they show.
 */
import type { Workflow } from '../../types'
import { cancelJob, holdJob, releaseJob } from './jobs'
import { addPrinter, pausePrinter, setAllowedUsers, setDefaultOptions } from './printers'
import { listJobs, searchPrinters } from './reads'

export const WORKFLOWS: Workflow[] = [
  searchPrinters,
  listJobs,
  pausePrinter,
  cancelJob,
  holdJob,
  releaseJob,
  setDefaultOptions,
  setAllowedUsers,
  addPrinter,
]
