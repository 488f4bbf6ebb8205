/**
 * Syncthing workflow that adds a remote device: the Add Device dialog, whose Device ID field asks
 * `GET /rest/svc/deviceid?id=` to validate what was typed, then the whole config written back
 * with the new device (`PUT /rest/config`).
 */
import type { Workflow } from '../types'
import { changeConfig, mustPass, readConfig } from './api'
import { WRITE_CONFIG } from './folders'
import { configSaved, waitForDashboard } from './person'
import { READ_CONFIG } from './reads'
import { DEVICES, NEW_DEVICE_IDS } from './seed'

const [OFFICE_ID, BACKUP_ID, TABLET_ID] = NEW_DEVICE_IDS

/** Clicks "Add Remote Device", pastes the device ID, types a name, Save. */
export const addDevice: Workflow = {
  id: 'add_device',
  intent: `add the remote device ${OFFICE_ID} with the name Office Desktop`,
  rewordings: {
    terse: `add device ${OFFICE_ID} Office Desktop`,
    chatty: `My office computer has Syncthing now, its ID is ${OFFICE_ID}. Could you add it as a device called Office Desktop?`,
    withoutValue: 'add a remote device to Syncthing',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await waitForDashboard(page)
    await page.getByRole('button', { name: 'Add Remote Device' }).click()
    const dialog = page.locator('#editDevice')
    const id = dialog.locator('#deviceID')
    await id.waitFor()
    // People paste a device ID (63 characters) copied from the other device's "Show ID".
    await id.fill(OFFICE_ID)
    const name = dialog.locator('#name')
    await name.click()
    await name.pressSequentially('Office Desktop', { delay: 40 })
    const save = dialog.locator('.modal-footer').getByRole('button', { name: 'Save' })
    // Enabled once the server said the ID is valid.
    await page.waitForFunction(
      () =>
        !(document.querySelector('#editDevice .modal-footer .btn-primary') as HTMLButtonElement)
          ?.disabled,
    )
    const saved = configSaved(page)
    await save.click()
    await saved
    await page.locator('#devices').getByText('Office Desktop', { exact: true }).waitFor()
  },
  key: {
    target: WRITE_CONFIG,
    inputs: [
      { recorded: OFFICE_ID, changed: [BACKUP_ID, TABLET_ID] },
      { recorded: 'Office Desktop', changed: ['Backup Server', 'Tablet'] },
    ],
    dependencies: [READ_CONFIG],
    mutating: true,
    async replayByHand(app, session) {
      const used = [BACKUP_ID, 'Backup Server']
      await changeConfig(app, session, (config) => {
        const template = config.devices.find((d) => d.deviceID === DEVICES.laptop.id)!
        config.devices.push({
          ...template,
          deviceID: used[0]!,
          name: used[1]!,
          addresses: ['dynamic'],
        })
      })
      mustPass(await addDevice.key.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, session, used) {
      const [id, name] = used.map(String) as [string, string]
      const devices = (await readConfig(app, session)).devices
      const device = devices.find((d) => d.deviceID === id)
      if (!device) return `no device ${id}`
      if (device.name !== name) return `${id} is named ${device.name}, not ${name}`
      const named = devices.filter((d) => d.name === name).length
      if (named > 1) return `${named} devices are named ${name}`
      return devices.some((d) => d.deviceID === OFFICE_ID)
        ? 'the recorded device Office Desktop was added too'
        : null
    },
  },
}
