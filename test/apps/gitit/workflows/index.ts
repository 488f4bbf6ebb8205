/** The scripted workflows of Gitit, in the order they are recorded (one instance). */
import type { Workflow } from '../../types'
import { createPage, deletePage, editPage, revertPage } from './pages'
import { compareRevisions, pageHistory, searchPages } from './reads'
import { uploadFile } from './upload'

// The reads come first, while every page still says what the seed put there; the delete starts
// signed out and comes last.
export const WORKFLOWS: Workflow[] = [
  searchPages,
  pageHistory,
  compareRevisions,
  createPage,
  editPage,
  revertPage,
  uploadFile,
  deletePage,
]
