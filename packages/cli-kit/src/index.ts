export { type KeySource, privateKeyFromEnv, readKeystore } from './account.js'
export { type ChainOfParameters, chainOf, checkChainId, type ExpectedChain } from './chain.js'
export { type CliClient, type CliWalletClient, CommandContext } from './commandContext.js'
export { type CliDeployment, type DeploymentOfParameters, deploymentOf } from './deployment.js'
export {
  ChainMismatchError,
  type ChainMismatchErrorType,
  CliError,
  type CliErrorParameters,
  DeploymentMissingError,
  type DeploymentMissingErrorType,
  RpcUnreachableError,
  type RpcUnreachableErrorType,
  UsageError,
  type UsageErrorType,
} from './errors.js'
export {
  causesOf,
  type ErrorClass,
  type ErrorReporting,
  type ExitCodeRule,
  exitCodeOf,
  exitCodes,
  type SdkErrorClasses,
} from './exitCodes.js'
export { fields, formatDate, formatTransaction, table } from './format.js'
export {
  createProgram,
  examples,
  globalsOf,
  type ProgramDescription,
  type ProgramOptions,
  type RunProgramOptions,
  runProgram,
} from './program.js'
export { type PromptInput, promptHidden } from './prompt.js'
export { readJsonFile } from './readJsonFile.js'
export { describeError, errorJson, type ReportContext, reportError } from './reportError.js'
export { runBin } from './runBin.js'
export { type Sink, Terminal, type TerminalOptions, toJson } from './terminal.js'
