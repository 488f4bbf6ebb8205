/**
 * The scripted workflows of Icecast, in the order they are recorded and checked (all on one
 * instance): the reads first, so the writes after them cannot change what they show.
 */
import type { Workflow } from '../../types'
import { addListenerAccount, deleteListenerAccount } from './accounts'
import { listListeners, listMounts, serverStatus } from './reads'
import { killSource, kickListener, moveListeners, updateMetadata } from './streams'

export const WORKFLOWS: Workflow[] = [
  serverStatus,
  listMounts,
  listListeners,
  updateMetadata,
  kickListener,
  moveListeners,
  killSource,
  addListenerAccount,
  deleteListenerAccount,
]
