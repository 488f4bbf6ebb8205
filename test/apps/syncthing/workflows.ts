import type { Workflow } from '../types'
import { addDevice } from './devices'
import { addFolder, pauseFolder, removeFolder, renameFolder, setRescanInterval } from './folders'
import { listFolders, showIgnorePatterns } from './reads'
import { renameThisDevice, rescanFolder } from './signedOut'

/**
 * The scripted workflows, in the order they are recorded and checked on one instance: the reads
 * first, then the writes. Each one touches its own folders (see `FOLDERS` in `seed.ts`), so no
 * workflow changes what another reads or counts.
 */
export const WORKFLOWS: Workflow[] = [
  listFolders,
  showIgnorePatterns,
  rescanFolder,
  addFolder,
  renameFolder,
  pauseFolder,
  setRescanInterval,
  removeFolder,
  addDevice,
  renameThisDevice,
]
