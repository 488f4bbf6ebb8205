import { BrowserWindow, shell } from 'electron'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { denyPermissions, guardNavigation, UI_SECURITY_HEADERS } from './security'

/**
 * The URL of the app's own page: the dev server in development, else the built renderer's
 * `index.html` next to the main bundle in `dir`. IPC and navigation guards trust only this.
 */
export function appPageUrl(dir: string, devServerUrl: string | undefined): string {
  return devServerUrl ?? pathToFileURL(join(dir, '../renderer/index.html')).href
}

/**
 * The main window: sandboxed, context-isolated renderer with the preload as its only bridge.
 * Links to other sites open in the person's browser, never inside the app; navigations and
 * redirects away from the app's page are cancelled; every permission request is denied; the
 * built page carries the CSP in its `<meta>` (file: has no headers) and any http response in the
 * window gets the security headers.
 */
export function createMainWindow(dir: string, devServerUrl: string | undefined): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Sitecall',
    show: false,
    webPreferences: {
      preload: join(dir, '../preload/index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      // Middle-click would open links in a new window past the navigation guard.
      disableBlinkFeatures: 'Auxclick',
    },
  })
  const appUrl = appPageUrl(dir, devServerUrl)
  const session = win.webContents.session
  denyPermissions(session)
  // The dev server's React preamble is an inline script: its pages go without the CSP header.
  if (!devServerUrl)
    session.webRequest.onHeadersReceived((details, callback) =>
      callback({ responseHeaders: { ...details.responseHeaders, ...headerLists() } }),
    )
  guardNavigation(win.webContents, appUrl, (url) => void shell.openExternal(url))
  win.once('ready-to-show', () => win.show())
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:/.test(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  if (devServerUrl) void win.loadURL(devServerUrl)
  else void win.loadFile(join(dir, '../renderer/index.html'))
  return win
}

/** `UI_SECURITY_HEADERS` in the shape Electron's `onHeadersReceived` takes. */
function headerLists(): Record<string, string[]> {
  return Object.fromEntries(Object.entries(UI_SECURITY_HEADERS).map(([k, v]) => [k, [v]]))
}
