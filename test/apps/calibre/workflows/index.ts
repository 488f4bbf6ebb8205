/**
 * The scripted workflows of calibre's content server, in the order they are recorded and checked
 * (all on one instance): the reads first, then the writes, each on its own books; the list mode
 * last, since the user's preferences outlive the page and the others work in the cover grid.
 */
import type { Workflow } from '../../types'
import { booksWithTag, sortByTitle, searchAuthor } from './reads'
import { addTag, deleteBook, listMode, renameBook, uploadBook } from './writes'

export const WORKFLOWS: Workflow[] = [
  searchAuthor,
  booksWithTag,
  sortByTitle,
  addTag,
  renameBook,
  deleteBook,
  uploadBook,
  listMode,
]
