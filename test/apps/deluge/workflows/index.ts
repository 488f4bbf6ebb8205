import type { Workflow } from '../../types'
import { limitTorrentSpeed, pauseTorrent, removeTorrent, resumeTorrent } from './actions'
import { addMagnet, uploadTorrent } from './add'
import { setDownloadLimit } from './prefs'
import { filterByState, listTorrents } from './reads'

/**
 * The workflows, in the order they are recorded and measured on one instance: the reads first
 * (they see the seed as it is), then the writes, each on torrents no other workflow touches.
 */
export const WORKFLOWS: Workflow[] = [
  listTorrents,
  filterByState,
  pauseTorrent,
  resumeTorrent,
  limitTorrentSpeed,
  removeTorrent,
  addMagnet,
  uploadTorrent,
  setDownloadLimit,
]
