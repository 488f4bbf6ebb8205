// House rules of issue 28 "Done when", held by pinned lists that may only shrink: no function in
// src/ over MAX_FUNCTION_LINES lines and no bare catch (see `isBareCatch`) outside them. A pin is
// [file, function path, lines] or [file, function path, bare catches in it]; the rows as they
// stand print with `npx tsx test/house/figures.ts --pins`. Each failure says what moved, so a
// change that splits a function or drops a catch also removes its row.
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { MAX_FUNCTION_LINES, measureSources, pinProblems, type Pin } from '../house/measure'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

const LONG_FUNCTIONS: Pin[] = []

const BARE_CATCHES: Pin[] = [
  ['src/main/api/auth.ts', 'calledTool.decode', 1],
  ['src/main/api/routes/signIn.ts', 'registerSignInRoutes.post()#3', 1],
  ['src/main/app/demoTools.ts', 'repointDemoTools', 1],
  ['src/main/browse/browseSession.ts', 'trackSession.then()', 1],
  ['src/main/browse/searchHeuristic.ts', 'findSearchBox', 1],
  ['src/main/cliHar.ts', 'refuseOversized', 1],
  ['src/main/cliHar.ts', 'sitecallVersion', 1],
  ['src/main/compiler/graphql.ts', 'parseOperation', 1],
  ['src/main/compiler/graphqlLiterals.ts', 'literalsOf', 1],
  ['src/main/compiler/linkTokens.ts', 'safeDecode', 1],
  ['src/main/compiler/lookupByName.ts', 'decodeQuery', 1],
  ['src/main/compiler/pageSearch.ts', 'sentText', 2],
  ['src/main/compiler/pickedRows.ts', 'safeDecode', 1],
  ['src/main/compiler/recordedRecord.ts', 'swapPath.map()', 1],
  ['src/main/compiler/requestValues.ts', 'pathSegments.map()', 1],
  ['src/main/compiler/resourceRecords.ts', 'lastSegment', 1],
  ['src/main/compiler/stepTemplate.ts', 'decodePart', 1],
  ['src/main/compiler/valueSpelling.ts', 'normalValue', 1],
  ['src/main/compiler/verifyRule.ts', 'decoded', 1],
  ['src/main/compiler/xmlBody.ts', 'xmlFields', 1],
  ['src/main/demo/orders/sessionRoutes.ts', 'checkCode', 1],
  ['src/main/engine/browserPool.ts', 'leaseOf.release', 1],
  ['src/main/engine/destination.ts', 'addressDenied', 1],
  ['src/main/engine/destination.ts', 'apiUrlDenied', 1],
  ['src/main/engine/httpExecutor.ts', 'pathValue', 1],
  ['src/main/engine/resultRetention.ts', 'startResultSweep.sweep', 1],
  ['src/main/engine/runExecute.ts', 'launch.catch()', 1],
  ['src/main/intent/language.ts', 'languageName', 1],
  ['src/main/intent/wordnet.ts', 'dict', 1],
  ['src/main/logins/signInBrowser.ts', 'siteStateOf', 1],
  ['src/main/mcp/serveFile.ts', 'keepServeFile.setInterval()', 1],
  ['src/main/mcp/serveFile.ts', 'readServeFile', 1],
  ['src/main/mcp/serveFile.ts', 'removeServeFile', 1],
  ['src/main/recorder/encodeBody.ts', 'decodeUtf8', 1],
  ['src/main/recorder/traceRecorder.ts', 'addExchange', 1],
  ['src/main/recorder/traceRecorder.ts', 'emitAction', 1],
  ['src/main/recorder/traceRecorder.ts', 'fallbackPageUrl', 1],
  ['src/main/recorder/traceRecorder.ts', 'initiatorUrl', 1],
  ['src/main/recorder/traceRecorder.ts', 'isRecorded', 1],
  ['src/main/recorder/traceRecorder.ts', 'readBody', 1],
  ['src/main/recorder/uploadBodies.ts', 'attach', 1],
  ['src/main/router/meaning/lemma.ts', 'load', 1],
  ['src/main/router/meaning/products.ts', 'load', 1],
  ['src/main/router/meaning/vectors.ts', 'vectorFile', 1],
  ['src/main/router/toolProfile.ts', 'decodeSegment', 1],
  ['src/main/server/release.ts', 'releaseNode', 1],
  ['src/main/server/runQueue.ts', 'registerRunQueueMetrics.collect', 1],
  ['src/main/serverNodes.ts', 'startNodeLiveness.setInterval()', 1],
  ['src/main/store/dataDirLock.ts', 'readText', 1],
  ['src/main/store/dataDirLock.ts', 'unlinkQuietly', 1],
  ['src/main/store/postgres/pgSync.ts', 'closeConnection', 1],
  ['src/main/store/postgres/pgSync.ts', 'runTransaction', 1],
  ['src/main/store/walCheckpoints.ts', 'startWalCheckpoints.setInterval()', 1],
  ['src/main/sync/deviceAgent.ts', 'sweep', 1],
  ['src/main/sync/deviceWork.ts', 'awaitApproval', 1],
  ['src/main/vault/envelope.ts', 'open', 1],
  ['src/renderer/api.ts', 'establishSession', 1],
  ['src/renderer/api.ts', 'keepSessionFresh.refresh', 1],
  ['src/shared/linkQuery.ts', 'parseLinkQuery', 1],
  ['src/shared/safeJson.ts', 'safeJson', 1],
  ['src/shared/safeJson.ts', 'safeUrl', 1],
  ['src/shared/urls.ts', 'decodeOrKeep', 1],
  ['src/shared/xmlTree.ts', 'xmlTree', 1],
]

describe('the house rules of src/', () => {
  const figures = measureSources(root)

  it(`has no function over ${MAX_FUNCTION_LINES} lines outside the pinned list`, () => {
    const long = figures.functions
      .filter((f) => f.lines > MAX_FUNCTION_LINES)
      .map((f): Pin => [f.file, f.name, f.lines])
    expect(pinProblems(LONG_FUNCTIONS, long, `function over ${MAX_FUNCTION_LINES} lines`)).toEqual(
      [],
    )
  })

  it('has no bare catch outside the pinned list', () => {
    const counts = new Map<string, Pin>()
    for (const c of figures.bareCatches) {
      const row = counts.get(`${c.file} ${c.function}`) ?? [c.file, c.function, 0]
      row[2] += 1
      counts.set(`${c.file} ${c.function}`, row)
    }
    expect(pinProblems(BARE_CATCHES, [...counts.values()], 'bare catch')).toEqual([])
  })

  it('pins each row once', () => {
    for (const pins of [LONG_FUNCTIONS, BARE_CATCHES]) {
      const rows = pins.map(([file, name]) => `${file} ${name}`)
      expect(rows.filter((row, i) => rows.indexOf(row) !== i)).toEqual([])
    }
  })
})
