import { app, BrowserWindow, dialog, ipcMain } from 'electron'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createAppDispatch } from './app/appDispatch'
import { createCore, type Core } from './core'
import { forwardEvents, registerIpc } from './desktop/ipc'
import { registerScreencastIpc } from './desktop/screencastIpc'
import { electronAlertSinks } from './desktop/notifications'
import { watchRequirements } from './desktop/requirementAlerts'
import { appPageUrl, createMainWindow } from './desktop/window'
import { keepServeFile } from './mcp/serveFile'

// The Electron entry (docs/architecture.md "Processes"): the same core as `sitecall serve`, plus a window over IPC.
const dir = dirname(fileURLToPath(import.meta.url))
let core: Core | null = null
let forgetServeFile: (() => void) | null = null

async function start(): Promise<void> {
  core = createCore({ rendererDir: null })
  const base = await core.listen()
  // `sitecall mcp` (the Connect page's command configs) bridges to this app's /mcp.
  const serving = core
  forgetServeFile = keepServeFile(serving.home, base, () => serving.ownerTokens.issue().token)
  registerIpc(
    ipcMain,
    createAppDispatch(core.handlers, (error) => console.error(error)),
    appPageUrl(dir, process.env.ELECTRON_RENDERER_URL),
  )
  registerScreencastIpc(
    ipcMain,
    core.recordings,
    appPageUrl(dir, process.env.ELECTRON_RENDERER_URL),
    core.signIns,
  )
  const open = () => {
    const win = createMainWindow(dir, process.env.ELECTRON_RENDERER_URL)
    const off = forwardEvents(core!.events, (channel, payload) =>
      win.webContents.send(channel, payload),
    )
    win.on('closed', off)
  }
  open()
  // A notification's click brings the app forward on its inbox (docs/architecture.md "Processes": hash routes).
  const openInbox = () => {
    const win = BrowserWindow.getAllWindows()[0]
    if (!win) return open()
    if (win.isMinimized()) win.restore()
    win.show()
    win.focus()
    void win.webContents.executeJavaScript("location.hash = '#/inbox'")
  }
  watchRequirements({
    events: core.events,
    pending: async () => (await core!.handlers['requirements.list']({})).items,
    ...electronAlertSinks(openInbox),
    onError: (error) => console.error(error),
  })
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) open()
  })
}

app
  .whenReady()
  .then(start)
  .catch((error: unknown) => {
    console.error(error)
    // A refused start (another process holds the data dir) is told, not hidden.
    dialog.showErrorBox('Sitecall cannot start', (error as Error).message)
    app.exit(1)
  })

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

app.on('before-quit', (event) => {
  if (!core) return
  // Close the database and recordings before exit so nothing is lost mid-write.
  event.preventDefault()
  const closing = core
  core = null
  forgetServeFile?.()
  void closing.close().finally(() => app.quit())
})
