import { app, Notification } from 'electron'
import type { RequirementAlert } from './requirementAlerts'

/**
 * Electron's ends of the requirement alerts: a system notification that opens the inbox when
 * clicked, and the dock or taskbar badge (`app.setBadgeCount`; macOS and Linux Unity launchers
 * show it, elsewhere it is a no-op). Where notifications are not supported only the badge shows.
 */
export function electronAlertSinks(openInbox: () => void): {
  notify: (alert: RequirementAlert) => void
  setBadgeCount: (count: number) => void
} {
  return {
    notify(alert) {
      if (!Notification.isSupported()) return
      const notification = new Notification({ title: alert.title, body: alert.body })
      notification.on('click', openInbox)
      notification.show()
    },
    setBadgeCount: (count) => void app.setBadgeCount(count),
  }
}
