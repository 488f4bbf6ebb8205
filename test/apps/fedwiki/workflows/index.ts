/** The scripted workflows of Federated Wiki, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { createPage, deletePage, discardRecycled } from './pages'
import { addParagraph, editParagraphText, removeParagraph } from './paragraphs'
import { openPage, searchPages } from './reads'

export const WORKFLOWS: Workflow[] = [
  searchPages,
  openPage,
  createPage,
  addParagraph,
  editParagraphText,
  removeParagraph,
  deletePage,
  discardRecycled,
]
