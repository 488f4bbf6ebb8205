/**
 * The feeder of an Icecast instance, run as its own Node process (`node --import tsx feeder.ts
 * <config> <port>`, started by `server.ts` as a process-group leader): it starts `icecast2` as its
 * child (so one signal to the group ends both), then, one connection after another, connects the
 * seeded sources (`PUT /<mount>`, streaming a loop of silent MP3 frames), sets each mount's song
 * title as a source client does (`GET /admin/metadata`), and connects the seeded listeners. It
 * prints `READY` when all are in, and keeps them streaming until it is killed.
 *
 * Why a separate process: a source that sends nothing for `<source-timeout>` seconds is dropped,
 * and the test process may block its event loop for longer than that (compiling a trace).
 * Why one connection at a time: Icecast numbers connections in the order it accepts them, and
 * the listeners' ids (in the Kick links) must be the same on every start.
 */
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { dirname } from 'node:path'
import { AUTH_MOUNTS, MOUNTS, SOURCE_PASSWORD, type SeedListener, type SeedMount } from './seed'

/** Debian's binary. */
const ICECAST = '/usr/bin/icecast2'

/** Icecast refuses to run as root without `<changeowner>`: as root, start it as `nobody`. */
function icecastCommand(config: string): [string, string[]] {
  if (process.getuid?.() !== 0) return [ICECAST, ['-c', config]]
  return [
    '/usr/bin/setpriv',
    ['--reuid=65534', '--regid=65534', '--clear-groups', '--', ICECAST, '-c', config],
  ]
}

/**
 * One MPEG-1 Layer III frame of silence: header `FF FB 18 C4` (32 kbit/s, 32 kHz, mono, no CRC),
 * then zero side info (no main data: every granule decodes to silence); 144 bytes, 36 ms.
 */
function silentFrame(): Buffer {
  const frame = Buffer.alloc(144)
  frame.set([0xff, 0xfb, 0x18, 0xc4])
  return frame
}

/** What a source sends every {@link TICK_MS}: seven frames, about its 32 kbit/s. */
const CHUNK = Buffer.concat(Array.from({ length: 7 }, silentFrame))
const TICK_MS = 250

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`
}

function log(line: string): void {
  process.stderr.write(`feeder: ${line}\n`)
}

/** Opens a TCP connection to Icecast; resolves once it is established. */
function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.off('error', reject)
      resolve(socket)
    })
    socket.once('error', reject)
  })
}

/**
 * Opens the first connection, retrying while Icecast is not listening yet (a refused connection
 * is never accepted, so it takes no connection id).
 */
async function openWhenListening(port: number, timeoutMs: number): Promise<Socket> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await open(port)
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((r) => setTimeout(r, 50))
    }
  }
}

/** Resolves with the response head (status line and headers) Icecast sends on `socket`. */
function responseHead(socket: Socket, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let head = ''
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1')
      const end = head.indexOf('\r\n\r\n')
      if (end < 0) return
      socket.off('data', onData)
      socket.off('close', onClose)
      // A listener's socket goes on carrying audio: read it and drop it.
      socket.resume()
      resolve(head.slice(0, end))
    }
    const onClose = () => reject(new Error(`${what}: closed before answering (${head})`))
    socket.on('data', onData)
    socket.once('close', onClose)
  })
}

function mustBeOk(head: string, what: string): void {
  if (!/^HTTP\/1\.[01] 200\b/.test(head))
    throw new Error(`${what} answered ${head.split('\r\n')[0]}`)
}

/** Connects `mount`'s source (HTTP PUT, as Icecast 2.4 source clients do) and starts its stream. */
async function connectSource(socket: Socket, port: number, mount: SeedMount): Promise<void> {
  const headers = [
    `PUT ${mount.mount} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    `Authorization: ${basic('source', SOURCE_PASSWORD)}`,
    'User-Agent: kestrel-encoder/1.0',
    'Content-Type: audio/mpeg',
    `Ice-Name: ${mount.name}`,
    `Ice-Description: ${mount.description}`,
    `Ice-Genre: ${mount.genre}`,
    `Ice-Url: http://kestrel.example${mount.mount.replace(/\.mp3$/, '')}`,
    'Ice-Bitrate: 32',
    'Ice-Public: 0',
  ]
  socket.write(`${headers.join('\r\n')}\r\n\r\n`)
  mustBeOk(await responseHead(socket, `source ${mount.mount}`), `source ${mount.mount}`)
  const timer = setInterval(() => socket.write(CHUNK), TICK_MS)
  socket.write(CHUNK)
  socket.on('error', () => undefined)
  socket.once('close', () => {
    clearInterval(timer)
    log(`source ${mount.mount} was disconnected`)
  })
}

/** Sets `mount`'s song title as its source client would: `GET /admin/metadata`, source login. */
async function setTitle(port: number, mount: SeedMount): Promise<void> {
  const socket = await open(port)
  const query = new URLSearchParams({
    mount: mount.mount,
    mode: 'updinfo',
    song: mount.title,
    charset: 'UTF-8',
  })
  socket.write(
    `GET /admin/metadata?${query.toString()} HTTP/1.0\r\n` +
      `Authorization: ${basic('source', SOURCE_PASSWORD)}\r\n` +
      'User-Agent: kestrel-encoder/1.0\r\n\r\n',
  )
  const head = await responseHead(socket, `title of ${mount.mount}`)
  mustBeOk(head, `title of ${mount.mount}`)
  socket.destroy()
}

/** Sends a listener's request on an open connection (HTTP/1.0 GET, as players do). */
function requestStream(socket: Socket, mount: string, listener: SeedListener): void {
  const lines = [`GET ${mount} HTTP/1.0`, `User-Agent: ${listener.userAgent}`]
  const account = AUTH_MOUNTS[mount]?.find((a) => a.name === listener.account)
  if (account) lines.push(`Authorization: ${basic(account.name, account.password)}`)
  socket.write(`${lines.join('\r\n')}\r\n\r\n`)
  socket.on('error', () => undefined)
}

async function main(): Promise<void> {
  // Once the test process is gone, so are the read ends of our stdout and stderr: a log line
  // must not crash the feeder (EPIPE) before it has stopped Icecast.
  process.stdout.on('error', () => undefined)
  process.stderr.on('error', () => undefined)
  const [config, portText] = process.argv.slice(2)
  const port = Number(portText)
  if (!config || !port) throw new Error('usage: feeder.ts <icecast.xml> <port>')
  const [command, args] = icecastCommand(config)
  const icecast = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] })
  const exited = new Promise<void>((resolve) => icecast.once('exit', () => resolve()))
  let stopping = false
  icecast.once('exit', (code, signal) => {
    if (stopping) return
    log(`icecast2 exited (${code ?? signal})`)
    process.exit(1)
  })
  // Ends Icecast and waits for it (so no zombie is left, and its files are closed), then exits.
  const stop = async (removeDir: boolean) => {
    if (stopping) return
    stopping = true
    icecast.kill('SIGTERM')
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))])
    if (icecast.exitCode === null && icecast.signalCode === null) icecast.kill('SIGKILL')
    if (removeDir) rmSync(dirname(config), { recursive: true, force: true })
    process.exit(0)
  }
  process.once('SIGTERM', () => void stop(false))
  process.once('SIGINT', () => void stop(false))
  // The test process that started us is gone (killed without close()): go too, and take the
  // instance's temp dir along, which its close() would have removed.
  const parent = process.ppid
  setInterval(() => {
    if (process.ppid !== parent) void stop(true)
  }, 1000).unref()

  for (const [i, mount] of MOUNTS.entries()) {
    const socket = i === 0 ? await openWhenListening(port, 20_000) : await open(port)
    await connectSource(socket, port, mount)
  }
  for (const mount of MOUNTS) await setTitle(port, mount)
  const heads: Array<Promise<void>> = []
  for (const mount of MOUNTS)
    for (const listener of mount.listeners) {
      // Established before the next one opens: Icecast accepts (and numbers) them in this order.
      const socket = await open(port)
      const what = `listener ${listener.userAgent} of ${mount.mount}`
      const head = responseHead(socket, what).then((h) => {
        mustBeOk(h, what)
        socket.once('close', () => log(`${what} was disconnected`))
      })
      requestStream(socket, mount.mount, listener)
      heads.push(head)
    }
  await Promise.all(heads)
  process.stdout.write('READY\n')
}

main().catch((error: unknown) => {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
