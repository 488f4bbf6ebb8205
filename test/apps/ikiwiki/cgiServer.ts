/**
 * A tiny web server for one ikiwiki instance, run as its own process (the leader of the
 * instance's process group): it serves the compiled wiki (the destdir) as static files and runs
 * ikiwiki's CGI wrapper once per request at one path, as CGI/1.1 says (RFC 3875): the request in
 * environment variables, its body on stdin, the script's header block then body on stdout.
 *
 * Usage: `node --import tsx cgiServer.ts <port> <destdir> <cgi path> <cgi file>`
 */
import { spawn } from 'node:child_process'
import { createReadStream, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { extname, join, normalize } from 'node:path'

const [portArg, destdir, cgiPath, cgiFile] = process.argv.slice(2)
if (!portArg || !destdir || !cgiPath || !cgiFile) {
  console.error('usage: cgiServer.ts <port> <destdir> <cgi path> <cgi file>')
  process.exit(2)
}
const port = Number(portArg)

/** Content types of the files ikiwiki writes (pages, its CSS, JS, icons) and common uploads. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.js': 'application/javascript',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain; charset=utf-8',
  '.rss': 'application/rss+xml',
  '.atom': 'application/atom+xml',
}

/** Answers a GET for a file of the destdir; a directory answers its index.html. */
function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string): void {
  let file = normalize(join(destdir!, decodeURIComponent(pathname)))
  if (!file.startsWith(normalize(destdir!))) return notFound(res)
  try {
    let stat = statSync(file)
    if (stat.isDirectory()) {
      // A directory without its slash: a browser must see `/page/` so relative links resolve.
      if (!pathname.endsWith('/')) {
        res.writeHead(301, { location: `${pathname}/` })
        return void res.end()
      }
      file = join(file, 'index.html')
      stat = statSync(file)
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'content-length': stat.size,
      'cache-control': 'no-cache',
    })
    if (req.method === 'HEAD') return void res.end()
    createReadStream(file).pipe(res)
  } catch {
    notFound(res)
  }
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/plain' })
  res.end('Not Found\n')
}

/** Runs the CGI for one request and relays its answer. */
function runCgi(req: IncomingMessage, res: ServerResponse, url: URL): void {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GATEWAY_INTERFACE: 'CGI/1.1',
    SERVER_PROTOCOL: `HTTP/${req.httpVersion}`,
    SERVER_SOFTWARE: 'sitecall-cgi',
    SERVER_NAME: '127.0.0.1',
    SERVER_PORT: String(port),
    REQUEST_METHOD: req.method ?? 'GET',
    REQUEST_URI: req.url ?? cgiPath,
    SCRIPT_NAME: cgiPath,
    PATH_INFO: '',
    QUERY_STRING: url.search.slice(1),
    REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
  }
  if (req.headers['content-type']) env.CONTENT_TYPE = req.headers['content-type']
  if (req.headers['content-length']) env.CONTENT_LENGTH = req.headers['content-length']
  for (const [name, value] of Object.entries(req.headers)) {
    if (name === 'content-type' || name === 'content-length' || value === undefined) continue
    env[`HTTP_${name.toUpperCase().replace(/-/g, '_')}`] = Array.isArray(value)
      ? value.join(', ')
      : value
  }
  const child = spawn(cgiFile!, [], { env, stdio: ['pipe', 'pipe', 'inherit'] })
  req.pipe(child.stdin!)
  child.stdin!.on('error', () => {})
  const chunks: Buffer[] = []
  child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk))
  child.on('error', () => fail(res))
  child.on('close', () => {
    const out = Buffer.concat(chunks)
    // The header block ends at the first empty line (CRLF or bare LF, CGI allows both).
    let end = out.indexOf('\r\n\r\n')
    let skip = 4
    const lf = out.indexOf('\n\n')
    if (end < 0 || (lf >= 0 && lf < end)) [end, skip] = [lf, 2]
    if (end < 0) return fail(res)
    let status = 200
    const headers: Array<[string, string]> = []
    for (const line of out.subarray(0, end).toString('latin1').split(/\r?\n/)) {
      const colon = line.indexOf(':')
      if (colon < 0) continue
      const name = line.slice(0, colon).trim()
      const value = line.slice(colon + 1).trim()
      if (name.toLowerCase() === 'status') status = parseInt(value, 10) || 200
      else headers.push([name, value])
    }
    if (status === 200 && headers.some(([n]) => n.toLowerCase() === 'location')) status = 302
    const body = out.subarray(end + skip)
    res.statusCode = status
    for (const [name, value] of headers) res.appendHeader(name, value)
    res.setHeader('content-length', body.length)
    res.end(body)
  })
}

function fail(res: ServerResponse): void {
  if (res.headersSent) return void res.end()
  res.writeHead(502, { 'content-type': 'text/plain' })
  res.end('Bad Gateway: the CGI gave no answer\n')
}

createServer((req, res) => {
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`)
  if (url.pathname === cgiPath) runCgi(req, res, url)
  else if (req.method === 'GET' || req.method === 'HEAD') serveStatic(req, res, url.pathname)
  else notFound(res)
}).listen(port, '127.0.0.1')
