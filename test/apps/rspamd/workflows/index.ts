/**
 * The scripted workflows of Rspamd, in the order they are recorded and checked (all on one
 * instance): the reads first, the history search before the scans add rows to it, the reset last.
 * Every one starts at the login dialog: the UI keeps the password in the tab's sessionStorage,
 * which no saved storage state carries, so a recording cannot start signed in.
 */
import type { Workflow } from '../../types'
import { resetHistory, searchHistory } from './history'
import { addMapEntry } from './maps'
import { learnHam, learnSpam, scanMessage } from './scan'
import { readStatus } from './status'
import { changeSymbolScore } from './symbols'

export const WORKFLOWS: Workflow[] = [
  readStatus,
  searchHistory,
  scanMessage,
  learnSpam,
  learnHam,
  changeSymbolScore,
  addMapEntry,
  resetHistory,
]
