/** The scripted workflows of the mlmmj web admin, in the order they are recorded (one instance). */
import type { Workflow } from '../../types'
import { listSubscribers, viewListSettings } from './reads'
import { allowNonSubscribers, moderateList, setMaxMailSize, setPrefix } from './settings'
import { removeSubscriber, subscribeAddress } from './subscribers'

// Each workflow writes a list of its own (seed.ts): the order does not change what a page shows.
export const WORKFLOWS: Workflow[] = [
  listSubscribers,
  viewListSettings,
  subscribeAddress,
  removeSubscriber,
  setPrefix,
  moderateList,
  setMaxMailSize,
  allowNonSubscribers,
]
