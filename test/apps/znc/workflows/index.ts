/** The scripted workflows of ZNC, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { addNetwork, disableNetwork } from './networks'
import { setConnectDelay, setMotd } from './settings'
import { addUser, changeNick, deleteUser, listUsersWorkflow, userNetworks } from './users'

export const WORKFLOWS: Workflow[] = [
  listUsersWorkflow,
  userNetworks,
  addUser,
  // Before change_nick: the new-network form proposes the user's nick, which should be the seed's.
  addNetwork,
  disableNetwork,
  changeNick,
  deleteUser,
  setMotd,
  setConnectDelay,
]
