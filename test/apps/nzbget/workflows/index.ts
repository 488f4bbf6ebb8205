/**
 * The scripted workflows of NZBGet, in the order they are recorded and checked (all on one
 * instance): the reads first, so no write before them changes what they show; the timed pause
 * last, since it pauses the whole download queue.
 */
import type { Workflow } from '../../types'
import { uploadNzb } from './add'
import {
  deleteDownload,
  moveToTop,
  pauseDownload,
  resumeDownload,
  setCategory,
  setPriority,
} from './queue'
import { listDownloads, searchHistory } from './reads'
import { pauseUntil, setSpeedLimit } from './settings'

export const WORKFLOWS: Workflow[] = [
  listDownloads,
  searchHistory,
  pauseDownload,
  resumeDownload,
  deleteDownload,
  moveToTop,
  setPriority,
  setCategory,
  setSpeedLimit,
  uploadNzb,
  pauseUntil,
]
