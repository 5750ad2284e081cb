import { expect, test } from 'vitest'
import * as results from './index.js'

test('the exports of @gridforge/sdk/results', () => {
  expect(Object.keys(results).sort()).toMatchInlineSnapshot(`
    [
      "BlockWritesUnsupportedError",
      "InvalidResultKeyError",
      "InvalidSealedOutputError",
      "NotASealedOutputError",
      "SealedBlockMismatchError",
      "SealedOutputKeyError",
      "SealedOutputMismatchError",
      "SealedOutputTamperedError",
      "SealedOutputTruncatedError",
      "UnsupportedSealedOutputError",
      "deriveResultKey",
      "isSealedOutput",
      "openOutput",
      "resultKeyFromSecret",
      "resultKeyMessage",
      "sealOutput",
    ]
  `)
})
