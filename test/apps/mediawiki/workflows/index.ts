/** MediaWiki's scripted workflows, in the order they are recorded on one instance. */
import type { Workflow } from '../../types'
import { createPage, editPage } from './edit'
import { deletePage, renamePage } from './manage'
import { listPagesByPrefix, searchPages } from './read'
import { uploadFile } from './upload'

export const workflows: Workflow[] = [
  searchPages,
  listPagesByPrefix,
  editPage,
  createPage,
  renamePage,
  deletePage,
  uploadFile,
]
