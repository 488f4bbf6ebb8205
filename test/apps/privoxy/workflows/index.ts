/** The scripted workflows of Privoxy, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { allowSite, blockSite, removePattern, renamePattern } from './patterns'
import { lookupUrl, viewActionsFile } from './reads'
import { changeBlockMessage, stopBlocking } from './sections'

export const WORKFLOWS: Workflow[] = [
  lookupUrl,
  viewActionsFile,
  blockSite,
  allowSite,
  renamePattern,
  removePattern,
  changeBlockMessage,
  stopBlocking,
]
