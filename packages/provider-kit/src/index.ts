// @gridforge/provider-kit: turn any host into a Gridforge GPU executor.

// How a task is priced per GPU-second lives in the SDK, so that clients' quotes (`quoteTask`) compare the floors
// agents publish with exactly the price the agents compare with their policies.
export { pricePerGpuSecond } from '@gridforge/sdk'
export type {
  AgentOptions,
  AuditPolicy,
  LeasePolicy,
  Policy,
  WithdrawSchedule,
} from './agent/AgentOptions.js'
export { type Agent, defaultLimits, startAgent } from './agent/agent.js'
export { type ErrorKind, errorKind } from './agent/errorKind.js'
export {
  LeaseSourceRefusedError,
  type LeaseSourceRefusedErrorType,
  TaskRefusedError,
  type TaskRefusedErrorType,
} from './agent/errors.js'
export {
  type AuditCheck,
  finalSteps,
  type Journal,
  type JournalAudit,
  type JournalEntry,
  type JournalRun,
  type JournalRunLimits,
  type JournalStep,
  openJournal,
} from './agent/journal.js'
export { isTransient, type RetryOptions, retry, type Sleep } from './agent/retry.js'
export { type RunEnd, runEndOf } from './agent/runFailure.js'
export {
  type ConfigTemplateOptions,
  configTemplate,
} from './config/configTemplate.js'
export {
  ConfigExistsError,
  type ConfigExistsErrorType,
  type ConfigField,
  ConfigInvalidError,
  type ConfigInvalidErrorType,
  ConfigNotFoundError,
  type ConfigNotFoundErrorType,
  ConfigSyntaxError,
  type ConfigSyntaxErrorType,
} from './config/errors.js'
export {
  type LoadConfigErrorType,
  loadConfig,
  type ParseConfigErrorType,
  type ParseConfigOptions,
  parseConfig,
} from './config/loadConfig.js'
export type {
  AccountConfig,
  AgentConfig,
  AuditsConfig,
  ChainConfig,
  LeasesConfig,
  LimitsConfig,
  PolicyConfig,
  ProviderConfig,
  RegisterConfig,
  RuntimeConfig,
  StoreConfig,
  WithdrawConfig,
} from './config/schema.js'
export { capabilitiesOf, offeredGpus } from './detect/capabilities.js'
export {
  type CommandResult,
  type CommandRunner,
  type ExecFileRunnerOptions,
  execFileRunner,
} from './detect/commandRunner.js'
export { type DetectHostOptions, detectHost, type SystemInfoSource } from './detect/detectHost.js'
export {
  NvidiaSmiOutputError,
  type NvidiaSmiOutputErrorType,
  UnknownGpuError,
  type UnknownGpuErrorType,
} from './detect/errors.js'
export type { DockerReport, GpuInfo, HostReport, NvidiaReport } from './detect/HostReport.js'
export { parseCudaVersion, parseGpuQuery, type QueryNvidiaOptions, queryNvidia } from './detect/nvidiaSmi.js'
export { type ReceiptHardwareOptions, receiptHardwareOf } from './detect/receiptHardware.js'
export {
  type CheckId,
  type CheckItem,
  type CheckStatus,
  type RunDoctorOptions,
  runDoctor,
} from './doctor/doctor.js'
export { type FormatChecklistOptions, formatChecklist } from './doctor/formatChecklist.js'
export {
  ContainerEngineError,
  type ContainerEngineErrorType,
  ImageBuildError,
  type ImageBuildErrorType,
  ImageDigestMismatchError,
  type ImageDigestMismatchErrorType,
  ImageUnavailableError,
  type ImageUnavailableErrorType,
  LeaseServiceNotReadyError,
  type LeaseServiceNotReadyErrorType,
  NginxUnavailableError,
  type NginxUnavailableErrorType,
} from './errors.js'
export {
  type BenchmarkHostParameters,
  benchmarkHost,
  type CpuBenchmarkDetails,
  type GpuBenchmarkDetails,
  type HostBenchmark,
} from './hostBench/benchmarkHost.js'
export {
  GpuBenchmarkError,
  type GpuBenchmarkErrorType,
  NbodyOutputError,
  type NbodyOutputErrorType,
} from './hostBench/errors.js'
export {
  type BenchmarkGpusParameters,
  type GpuBenchmarkResult,
  nbodyImage,
} from './hostBench/gpuBenchmark.js'
export type { NbodyResult } from './hostBench/nbody.js'
export { type ProviderProfile, profileOf } from './hostBench/profile.js'
export type { LeaseAuthority, LeaseRef, LeaseState } from './lease/LeaseAuthority.js'
export type { LeaseDataPath, LeasePass } from './lease/LeaseDataPath.js'
export {
  type LeaseGateway,
  type LeaseGatewayOptions,
  type ServeResume,
  startLeaseGateway,
} from './lease/leaseGateway.js'
export { leaseAuthority, leaseIdOfHost } from './lease/leaseHost.js'
export { leaseResource, parseLeaseResource } from './lease/leaseResource.js'
export {
  type CreateLeaseSignInMessageParameters,
  createLeaseSignInMessage,
  type VerifyLeaseSignInParameters,
  type VerifyLeaseSignInReturnType,
  verifyLeaseSignIn,
} from './lease/leaseSignIn.js'
export {
  type GatewayOverhead,
  type MeasureGatewayOverheadParameters,
  measureGatewayOverhead,
} from './lease/measureGatewayOverhead.js'
export {
  type NginxDataPath,
  type NginxDataPathOptions,
  nginxAvailable,
  nginxDataPath,
  nginxDefaults,
} from './lease/nginx/nginxDataPath.js'
export { type OnChainLeaseAuthorityOptions, onChainLeaseAuthority } from './lease/onChainLeaseAuthority.js'
export {
  type AckPolicy,
  type AckRefusal,
  parseUsageAck,
  type UsageAck,
  usageTypedData,
} from './lease/usageAck.js'
export type { LeaseExchange, LeaseUsage } from './lease/usageMeter.js'
export {
  type JsonLoggerOptions,
  jsonLogger,
  type LogFields,
  type Logger,
  type LogLevel,
  silentLogger,
} from './logger.js'
export {
  type ContainerRuntime,
  containerLabels,
  type PreparedImage,
  type PrepareImageParameters,
  type ResourceLimits,
  type RunOutcome,
  type RunResult,
  type RunSpec,
  type TaskContainer,
} from './runtime/ContainerRuntime.js'
export { type Clock, systemClock } from './runtime/clock.js'
export {
  type BuildImageErrorType,
  type BuildImageParameters,
  type BuildImageReturnType,
  buildImage,
} from './runtime/docker/buildImage.js'
export { type DockerClientParameters, dockerClient } from './runtime/docker/dockerClient.js'
export { type DockerProbe, type ProbeDockerOptions, probeDocker } from './runtime/docker/probeDocker.js'
export type { OneOffRunResult, OneOffRunSpec } from './runtime/docker/runOneOff.js'
export { type DockerLeaseRuntimeOptions, dockerLeaseRuntime } from './runtime/dockerLeaseRuntime.js'
export { type DockerRuntime, type DockerRuntimeOptions, dockerRuntime } from './runtime/dockerRuntime.js'
export { type GpuPool, gpuPool } from './runtime/gpuPool.js'
export {
  type LeaseContainer,
  type LeaseContainerSpec,
  type LeaseLimits,
  type LeaseNetwork,
  type LeaseRuntime,
  type LeaseUpstream,
  leaseLabels,
} from './runtime/LeaseRuntime.js'
export { type ProcessRuntimeOptions, processRuntime } from './runtime/processRuntime.js'
