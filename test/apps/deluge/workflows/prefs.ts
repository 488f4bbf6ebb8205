/**
 * Preferences: the dialog reads the whole daemon config with `core.get_config` when it opens and
 * OK sends only the fields the person changed, `core.set_config([{"max_download_speed": 1500}])`.
 */
import type { Workflow } from '../../types'
import { call, mustPass } from '../rpc'
import { signInFromLoginWindow, toolbarButton, windowTitled } from '../ui'
import { rpcTarget } from './actions'

/** Signs in, opens Preferences → Bandwidth, types the global maximum download speed, clicks OK. */
export const setDownloadLimit: Workflow = {
  id: 'set_download_limit',
  intent: "set Deluge's global maximum download speed to 1500 KiB/s",
  rewordings: {
    terse: 'deluge download limit 1500',
    chatty:
      'Deluge is eating all of our bandwidth, could you cap the overall download speed at 1500 KiB/s?',
    withoutValue: 'change the global download speed limit in Deluge',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await signInFromLoginWindow(page, app.user.password)
    await toolbarButton(page, 'Preferences').click()
    const prefs = windowTitled(page, 'Preferences')
    await prefs.getByText('Bandwidth', { exact: true }).click()
    const field = prefs.locator('input[name=max_download_speed]')
    // The page shows the daemon's values once core.get_config answered.
    await page.waitForFunction(
      () =>
        (document.querySelector('input[name=max_download_speed]') as HTMLInputElement | null)
          ?.value === '-1',
    )
    await field.fill('1500')
    const saved = page.waitForResponse(
      (r) =>
        r.url().endsWith('/json') && (r.request().postData() ?? '').includes('core.set_config'),
    )
    await prefs.getByRole('button', { name: 'OK', exact: true }).click()
    await saved
    await prefs.waitFor({ state: 'hidden' })
  },
  key: {
    target: rpcTarget('core.set_config'),
    inputs: [{ recorded: 1500, changed: [800, 2400] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const speed = 800
      await call(app, session, 'core.set_config', [{ max_download_speed: speed }])
      mustPass(
        await setDownloadLimit.key.check(app, { status: 'succeeded', result: null }, session, [
          speed,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const want = Number(used[0])
      const got = await call(app, session, 'core.get_config_value', ['max_download_speed'])
      return got === want ? null : `the global max download speed is ${String(got)}, not ${want}`
    },
  },
}
