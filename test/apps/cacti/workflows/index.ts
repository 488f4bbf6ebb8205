/** The scripted workflows of Cacti, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { createSite, createUser, setMailSender } from './admin'
import {
  changeDeviceHostname,
  createDevice,
  deleteDevice,
  devicesAtSite,
  searchDevices,
} from './devices'

// The reads first: the writes add, change and delete devices the lists show.
export const WORKFLOWS: Workflow[] = [
  searchDevices,
  devicesAtSite,
  createDevice,
  changeDeviceHostname,
  deleteDevice,
  createSite,
  createUser,
  setMailSender,
]
