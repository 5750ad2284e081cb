import { expect, test } from 'vitest'
import * as storage from './index.js'

test('the exports of @gridforge/sdk/storage', () => {
  expect(Object.keys(storage).sort()).toMatchInlineSnapshot(`
    [
      "BlockTooLargeError",
      "ContentNotFoundError",
      "ContentTooLargeError",
      "ContentVerificationError",
      "DEFAULT_GATEWAY_TIMEOUT_MS",
      "DEFAULT_JSON_MAX_BYTES",
      "DEFAULT_KUBO_TIMEOUT_MS",
      "InvalidCidError",
      "InvalidContentError",
      "InvalidDagError",
      "InvalidDirectoryEntryError",
      "InvalidJsonContentError",
      "InvalidJsonValueError",
      "InvalidPathError",
      "KuboCidMismatchError",
      "KuboRpcError",
      "NotADirectoryError",
      "NotAFileError",
      "PathNotFoundError",
      "ReadOnlyStoreError",
      "StorageIoError",
      "StorageRequestError",
      "StorageTimeoutError",
      "UnsupportedCidError",
      "computeCid",
      "computeDirectoryCid",
      "encodeJson",
      "fsStore",
      "gatewayReader",
      "getBytes",
      "getJson",
      "importPath",
      "kuboStore",
      "memoryStore",
      "unixfsImportOptions",
      "unixfsImportSettings",
    ]
  `)
})
