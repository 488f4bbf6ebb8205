/** The scripted workflows of Tiny Tiny RSS, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { markArticleRead, starArticle } from './articles'
import { renameFeed, subscribeFeed, unsubscribeFeed } from './feeds'
import { changePreference, createCategory, createLabel } from './prefs'
import { listFeedUnread, searchArticles } from './reads'

export const WORKFLOWS: Workflow[] = [
  searchArticles,
  listFeedUnread,
  markArticleRead,
  starArticle,
  subscribeFeed,
  renameFeed,
  unsubscribeFeed,
  createCategory,
  createLabel,
  changePreference,
]
