/** The scripted workflows of DokuWiki, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { listNamespace, quickSearch } from './ajax'
import { logIn } from './login'
import { uploadFile } from './media'
import { createPage, deletePage, editPage } from './pages'
import { openPage, searchPages } from './read'

export const WORKFLOWS: Workflow[] = [
  searchPages,
  quickSearch,
  openPage,
  listNamespace,
  editPage,
  createPage,
  deletePage,
  uploadFile,
  logIn,
]
