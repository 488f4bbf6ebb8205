#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx sitecall ...` works in a checkout after `npm ci`.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/main/cli.ts')
process.exitCode = await main(process.argv.slice(2))
