// Entry point of `@gridforge/sdk/storage`: explicit named exports only.

export type {
  Content,
  ContentStore,
  ContentStoreGetErrorType,
  ContentStoreReadErrorType,
  ContentStoreWriteErrorType,
  DirectoryEntry,
  DirectoryListingEntry,
  GetOptions,
  LsOptions,
  ReadOptions,
  WriteOptions,
} from './ContentStore.js'
export {
  type ComputeCidErrorType,
  type ComputeCidParameters,
  type ComputeCidReturnType,
  type ComputeDirectoryCidErrorType,
  type ComputeDirectoryCidParameters,
  type ComputeDirectoryCidReturnType,
  computeCid,
  computeDirectoryCid,
} from './computeCid.js'
export { type EncodeJsonErrorType, encodeJson } from './encodeJson.js'
export {
  BlockTooLargeError,
  type BlockTooLargeErrorType,
  ContentNotFoundError,
  type ContentNotFoundErrorType,
  ContentTooLargeError,
  type ContentTooLargeErrorType,
  ContentVerificationError,
  type ContentVerificationErrorType,
  InvalidCidError,
  type InvalidCidErrorType,
  InvalidContentError,
  type InvalidContentErrorType,
  InvalidDagError,
  type InvalidDagErrorType,
  InvalidDirectoryEntryError,
  type InvalidDirectoryEntryErrorType,
  InvalidJsonContentError,
  type InvalidJsonContentErrorType,
  InvalidJsonValueError,
  type InvalidJsonValueErrorType,
  InvalidPathError,
  type InvalidPathErrorType,
  KuboCidMismatchError,
  type KuboCidMismatchErrorType,
  KuboRpcError,
  type KuboRpcErrorType,
  NotADirectoryError,
  type NotADirectoryErrorType,
  NotAFileError,
  type NotAFileErrorType,
  PathNotFoundError,
  type PathNotFoundErrorType,
  ReadOnlyStoreError,
  type ReadOnlyStoreErrorType,
  StorageIoError,
  type StorageIoErrorType,
  StorageRequestError,
  type StorageRequestErrorType,
  StorageTimeoutError,
  type StorageTimeoutErrorType,
  UnsupportedCidError,
  type UnsupportedCidErrorType,
} from './errors.js'
export { type FsStoreErrorType, type FsStoreParameters, type FsStoreReturnType, fsStore } from './fsStore.js'
export {
  DEFAULT_GATEWAY_TIMEOUT_MS,
  type GatewayReaderErrorType,
  type GatewayReaderParameters,
  type GatewayReaderReturnType,
  gatewayReader,
} from './gatewayReader.js'
export {
  type GetBytesErrorType,
  type GetBytesParameters,
  type GetBytesReturnType,
  getBytes,
} from './getBytes.js'
export {
  DEFAULT_JSON_MAX_BYTES,
  type GetJsonErrorType,
  type GetJsonParameters,
  type GetJsonReturnType,
  getJson,
} from './getJson.js'
export type { HttpClientParameters } from './http.js'
export {
  type ImportPathErrorType,
  type ImportPathParameters,
  type ImportPathReturnType,
  importPath,
} from './importPath.js'
export {
  DEFAULT_KUBO_TIMEOUT_MS,
  type KuboPinErrorType,
  type KuboStoreErrorType,
  type KuboStoreParameters,
  type KuboStoreReturnType,
  kuboStore,
} from './kuboStore.js'
export { type MemoryStoreReturnType, memoryStore } from './memoryStore.js'
export { unixfsImportOptions, unixfsImportSettings } from './unixfs.js'
