// Entry point of `@gridforge/sdk/results`: explicit named exports only.

export {
  BlockWritesUnsupportedError,
  type BlockWritesUnsupportedErrorType,
  InvalidResultKeyError,
  type InvalidResultKeyErrorType,
  InvalidSealedOutputError,
  type InvalidSealedOutputErrorType,
  NotASealedOutputError,
  type NotASealedOutputErrorType,
  SealedBlockMismatchError,
  type SealedBlockMismatchErrorType,
  SealedOutputKeyError,
  type SealedOutputKeyErrorType,
  SealedOutputMismatchError,
  type SealedOutputMismatchErrorType,
  SealedOutputTamperedError,
  type SealedOutputTamperedErrorType,
  SealedOutputTruncatedError,
  type SealedOutputTruncatedErrorType,
  UnsupportedSealedOutputError,
  type UnsupportedSealedOutputErrorType,
} from './errors.js'
export {
  type IsSealedOutputErrorType,
  type IsSealedOutputParameters,
  type IsSealedOutputReturnType,
  isSealedOutput,
} from './isSealedOutput.js'
export {
  type OpenOutputErrorType,
  type OpenOutputParameters,
  type OpenOutputReturnType,
  openOutput,
} from './openOutput.js'
export {
  type DeriveResultKeyErrorType,
  type DeriveResultKeyParameters,
  type DeriveResultKeyReturnType,
  deriveResultKey,
  type ResultKey,
  type ResultKeyFromSecretErrorType,
  type ResultKeyMessageErrorType,
  type ResultKeyMessageParameters,
  type ResultKeyMessageReturnType,
  resultKeyFromSecret,
  resultKeyMessage,
} from './resultKey.js'
export {
  type SealOutputErrorType,
  type SealOutputParameters,
  type SealOutputReturnType,
  sealOutput,
} from './sealOutput.js'
