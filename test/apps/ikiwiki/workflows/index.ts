/** The scripted workflows of ikiwiki, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { removePage, createNote, editPage, renamePage } from './pages'
import { changeEmail } from './prefs'
import { openPage, recentChanges } from './read'
import { uploadAttachment } from './upload'

export const WORKFLOWS: Workflow[] = [
  openPage,
  recentChanges,
  editPage,
  createNote,
  renamePage,
  removePage,
  uploadAttachment,
  changeEmail,
]
