import { BrowserWindow, shell } from 'electron'
import { join } from 'node:path'

/**
 * The main window: sandboxed, context-isolated renderer with the preload as its only bridge.
 * Links to other sites open in the person's browser, never inside the app.
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
    },
  })
  win.once('ready-to-show', () => win.show())
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:/.test(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  if (devServerUrl) void win.loadURL(devServerUrl)
  else void win.loadFile(join(dir, '../renderer/index.html'))
  return win
}
