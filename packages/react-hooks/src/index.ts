// Entry point of `@gridforge/react-hooks`: the hooks and the local-account connector. Explicit named
// exports only; framework-free options are in `@gridforge/react-hooks/query`.

export {
  type LocalAccountParameters,
  type LocalAccountProvider,
  localAccount,
} from './connectors/localAccount.js'
export type { ConfigParameter, UseQueryReturnType } from './hooks/query.js'
export {
  type UseCancelTaskParameters,
  type UseCancelTaskReturnType,
  useCancelTask,
} from './hooks/useCancelTask.js'
export {
  type UseClaimRewardsParameters,
  type UseClaimRewardsReturnType,
  useClaimRewards,
} from './hooks/useClaimRewards.js'
export {
  type UseCloseLeaseParameters,
  type UseCloseLeaseReturnType,
  useCloseLease,
} from './hooks/useCloseLease.js'
export { type UseDepositParameters, type UseDepositReturnType, useDeposit } from './hooks/useDeposit.js'
export {
  type UseExtendLeaseParameters,
  type UseExtendLeaseReturnType,
  useExtendLease,
} from './hooks/useExtendLease.js'
export { type UseLeaseParameters, type UseLeaseReturnType, useLease } from './hooks/useLease.js'
export {
  type UseLeaseCostParameters,
  type UseLeaseCostReturnType,
  useLeaseCost,
} from './hooks/useLeaseCost.js'
export { type UseLeasesParameters, type UseLeasesReturnType, useLeases } from './hooks/useLeases.js'
export {
  type UseNetworkStatsParameters,
  type UseNetworkStatsReturnType,
  useNetworkStats,
} from './hooks/useNetworkStats.js'
export {
  type UseProtocolParamsParameters,
  type UseProtocolParamsReturnType,
  useProtocolParams,
} from './hooks/useProtocolParams.js'
export { type UseProviderParameters, type UseProviderReturnType, useProvider } from './hooks/useProvider.js'
export {
  type UseProviderSummaryParameters,
  type UseProviderSummaryReturnType,
  useProviderSummary,
} from './hooks/useProviderSummary.js'
export {
  type UseQuoteTaskParameters,
  type UseQuoteTaskReturnType,
  useQuoteTask,
} from './hooks/useQuoteTask.js'
export { type UseReceiptParameters, type UseReceiptReturnType, useReceipt } from './hooks/useReceipt.js'
export {
  type UseRequestLeaseParameters,
  type UseRequestLeaseReturnType,
  useRequestLease,
} from './hooks/useRequestLease.js'
export { type UseRewardsParameters, type UseRewardsReturnType, useRewards } from './hooks/useRewards.js'
export { type UseSourceParameters, type UseSourceReturnType, useSource } from './hooks/useSource.js'
export { type UseSourcesParameters, type UseSourcesReturnType, useSources } from './hooks/useSources.js'
export { type UseStakeParameters, type UseStakeReturnType, useStake } from './hooks/useStake.js'
export {
  type UseStakePositionParameters,
  type UseStakePositionReturnType,
  useStakePosition,
} from './hooks/useStakePosition.js'
export {
  type UseSubmitTaskParameters,
  type UseSubmitTaskReturnType,
  useSubmitTask,
} from './hooks/useSubmitTask.js'
export { type UseTaskParameters, type UseTaskReturnType, useTask } from './hooks/useTask.js'
export { type UseTasksParameters, type UseTasksReturnType, useTasks } from './hooks/useTasks.js'
export {
  type UseTopUpLeaseParameters,
  type UseTopUpLeaseReturnType,
  useTopUpLease,
} from './hooks/useTopUpLease.js'
export { type UseUnbondParameters, type UseUnbondReturnType, useUnbond } from './hooks/useUnbond.js'
export {
  type UseWalletBalanceParameters,
  type UseWalletBalanceReturnType,
  useWalletBalance,
} from './hooks/useWalletBalance.js'
export { type UseWithdrawParameters, type UseWithdrawReturnType, useWithdraw } from './hooks/useWithdraw.js'
export {
  type UseWithdrawUnbondedParameters,
  type UseWithdrawUnbondedReturnType,
  useWithdrawUnbonded,
} from './hooks/useWithdrawUnbonded.js'
