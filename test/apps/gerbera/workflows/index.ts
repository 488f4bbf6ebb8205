/**
 * The scripted workflows of Gerbera, in the order they are recorded (all on one instance): the
 * reads first, then the writes, each on records no other workflow touches.
 */
import type { Workflow } from '../../types'
import { addAutoscan, removeAutoscan } from './autoscans'
import { addFileFromInbox, addStreamLink, editSongDescription, removePhoto } from './items'
import { browsePhotoFolder, listAllSongs, listArtistSongs } from './reads'

export const WORKFLOWS: Workflow[] = [
  listAllSongs,
  listArtistSongs,
  browsePhotoFolder,
  addFileFromInbox,
  removePhoto,
  editSongDescription,
  addStreamLink,
  addAutoscan,
  removeAutoscan,
]
