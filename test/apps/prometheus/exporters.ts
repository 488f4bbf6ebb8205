/**
 * The scrape targets of a Prometheus instance: tiny HTTP servers in this Node process, each on a
 * free 127.0.0.1 port, answering `GET /metrics` with a fixed text exposition. In-process because
 * they are a few lines and must die with the harness anyway; close() ends them with the instance.
 */
import { createServer, type Server } from 'node:http'
import { exposition, type Exporter } from './seed'

/** A running exporter: its port, and how to stop it. */
export interface RunningExporter {
  port: number
  close(): Promise<void>
}

/** Serves `exporter` on 127.0.0.1 (a port the kernel picks); `/metrics` only, 404 elsewhere. */
export function serveExporter(exporter: Exporter): Promise<RunningExporter> {
  const body = exposition(exporter)
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/metrics') {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' })
      res.end(body)
      return
    }
    res.writeHead(404, { 'content-type': 'text/plain' })
    res.end('not found\n')
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      let closing: Promise<void> | null = null
      resolve({
        port,
        close: () => {
          // Prometheus keeps its scrape connections alive: drop them, or close() waits forever.
          closing ??= new Promise<void>((done) => {
            server.close(() => done())
            server.closeAllConnections()
          })
          return closing
        },
      })
    })
  })
}
