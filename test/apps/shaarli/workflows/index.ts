/** The scripted workflows of Shaarli, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { addBookmark, deleteBookmark, editTitle, signInAndRetag } from './bookmarks'
import { filterByTag, listTags, searchBookmarks, signInAndSearch } from './reads'
import { changeTitle, importBookmarks, renameTag } from './tools'

export const WORKFLOWS: Workflow[] = [
  searchBookmarks,
  filterByTag,
  listTags,
  signInAndSearch,
  addBookmark,
  editTitle,
  signInAndRetag,
  deleteBookmark,
  renameTag,
  importBookmarks,
  changeTitle,
]
