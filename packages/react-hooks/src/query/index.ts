// Entry point of `@gridforge/react-hooks/query`: framework-free query and mutation options over a
// `@wagmi/core` Config. Explicit named exports only.

export {
  type CancelTaskData,
  type CancelTaskMutationErrorType,
  type CancelTaskOptions,
  type CancelTaskVariables,
  cancelTaskInvalidates,
  cancelTaskMutationOptions,
} from './cancelTask.js'
export {
  type ClaimRewardsData,
  type ClaimRewardsMutationErrorType,
  type ClaimRewardsOptions,
  type ClaimRewardsVariables,
  claimRewardsInvalidates,
  claimRewardsMutationOptions,
} from './claimRewards.js'
export {
  type CloseLeaseData,
  type CloseLeaseMutationErrorType,
  type CloseLeaseOptions,
  type CloseLeaseVariables,
  closeLeaseInvalidates,
  closeLeaseMutationOptions,
} from './closeLease.js'
export {
  type DepositData,
  type DepositMutationErrorType,
  type DepositOptions,
  type DepositVariables,
  depositInvalidates,
  depositMutationOptions,
} from './deposit.js'
export {
  type ExtendLeaseData,
  type ExtendLeaseMutationErrorType,
  type ExtendLeaseOptions,
  type ExtendLeaseVariables,
  extendLeaseInvalidates,
  extendLeaseMutationOptions,
} from './extendLease.js'
export {
  type GetLeaseData,
  type GetLeaseOptions,
  type GetLeaseQueryKey,
  type GetLeaseVariables,
  getLeaseQueryKey,
  getLeaseQueryOptions,
} from './getLease.js'
export {
  type GetLeaseCostData,
  type GetLeaseCostOptions,
  type GetLeaseCostQueryKey,
  type GetLeaseCostVariables,
  getLeaseCostQueryKey,
  getLeaseCostQueryOptions,
} from './getLeaseCost.js'
export {
  type GetNetworkStatsData,
  type GetNetworkStatsOptions,
  type GetNetworkStatsQueryKey,
  type GetNetworkStatsVariables,
  getNetworkStatsQueryKey,
  getNetworkStatsQueryOptions,
} from './getNetworkStats.js'
export {
  type GetProtocolParamsData,
  type GetProtocolParamsOptions,
  type GetProtocolParamsQueryKey,
  type GetProtocolParamsVariables,
  getProtocolParamsQueryKey,
  getProtocolParamsQueryOptions,
} from './getProtocolParams.js'
export {
  type GetProviderData,
  type GetProviderOptions,
  type GetProviderQueryKey,
  type GetProviderVariables,
  getProviderQueryKey,
  getProviderQueryOptions,
} from './getProvider.js'
export {
  type GetProviderSummaryData,
  type GetProviderSummaryOptions,
  type GetProviderSummaryQueryKey,
  type GetProviderSummaryVariables,
  getProviderSummaryQueryKey,
  getProviderSummaryQueryOptions,
} from './getProviderSummary.js'
export {
  type GetReceiptData,
  type GetReceiptOptions,
  type GetReceiptQueryKey,
  type GetReceiptVariables,
  getReceiptQueryKey,
  getReceiptQueryOptions,
} from './getReceipt.js'
export {
  type GetRewardsData,
  type GetRewardsOptions,
  type GetRewardsQueryKey,
  type GetRewardsVariables,
  getRewardsQueryKey,
  getRewardsQueryOptions,
} from './getRewards.js'
export {
  type GetSourceData,
  type GetSourceOptions,
  type GetSourceQueryKey,
  type GetSourceVariables,
  getSourceQueryKey,
  getSourceQueryOptions,
} from './getSource.js'
export {
  type GetStakeData,
  type GetStakeOptions,
  type GetStakeQueryKey,
  type GetStakeVariables,
  getStakeQueryKey,
  getStakeQueryOptions,
} from './getStake.js'
export {
  type GetTaskData,
  type GetTaskOptions,
  type GetTaskQueryKey,
  type GetTaskVariables,
  getTaskQueryKey,
  getTaskQueryOptions,
} from './getTask.js'
export {
  type GetWalletBalanceData,
  type GetWalletBalanceOptions,
  type GetWalletBalanceQueryKey,
  type GetWalletBalanceVariables,
  getWalletBalanceQueryKey,
  getWalletBalanceQueryOptions,
} from './getWalletBalance.js'
export {
  type ListLeasesData,
  type ListLeasesOptions,
  type ListLeasesQueryKey,
  type ListLeasesVariables,
  listLeasesQueryKey,
  listLeasesQueryOptions,
} from './listLeases.js'
export {
  type ListSourcesData,
  type ListSourcesOptions,
  type ListSourcesQueryKey,
  type ListSourcesVariables,
  listSourcesQueryKey,
  listSourcesQueryOptions,
} from './listSources.js'
export {
  type ListTasksData,
  type ListTasksOptions,
  type ListTasksQueryKey,
  type ListTasksVariables,
  listTasksQueryKey,
  listTasksQueryOptions,
} from './listTasks.js'
export {
  type QuoteTaskData,
  type QuoteTaskOptions,
  type QuoteTaskQueryKey,
  type QuoteTaskVariables,
  quoteTaskQueryKey,
  quoteTaskQueryOptions,
} from './quoteTask.js'
export {
  type RequestLeaseData,
  type RequestLeaseMutationErrorType,
  type RequestLeaseOptions,
  type RequestLeaseVariables,
  requestLeaseInvalidates,
  requestLeaseMutationOptions,
} from './requestLease.js'
export {
  type RequestUnbondData,
  type RequestUnbondMutationErrorType,
  type RequestUnbondOptions,
  type RequestUnbondVariables,
  requestUnbondInvalidates,
  requestUnbondMutationOptions,
} from './requestUnbond.js'
export {
  type StakeData,
  type StakeMutationErrorType,
  type StakeOptions,
  type StakeVariables,
  stakeInvalidates,
  stakeMutationOptions,
} from './stake.js'
export {
  type SubmitTaskData,
  type SubmitTaskMutationErrorType,
  type SubmitTaskOptions,
  type SubmitTaskVariables,
  submitTaskInvalidates,
  submitTaskMutationOptions,
} from './submitTask.js'
export {
  type TopUpLeaseData,
  type TopUpLeaseMutationErrorType,
  type TopUpLeaseOptions,
  type TopUpLeaseVariables,
  topUpLeaseInvalidates,
  topUpLeaseMutationOptions,
} from './topUpLease.js'
export type {
  MutationOptionsOf,
  MutationParameter,
  QueryOptions,
  QueryParameter,
  WriteVariables,
} from './types.js'
export {
  type ChainParameters,
  type GridforgeChainCustom,
  gridforgeQueryKeyPrefix,
} from './utils.js'
export {
  type WatchTaskQueriesParameters,
  type WatchTasksQueriesParameters,
  watchTaskQueries,
  watchTasksQueries,
} from './watch.js'
export { type WatchLeaseQueriesParameters, watchLeaseQueries } from './watchLease.js'
export {
  type WithdrawData,
  type WithdrawMutationErrorType,
  type WithdrawOptions,
  type WithdrawVariables,
  withdrawInvalidates,
  withdrawMutationOptions,
} from './withdraw.js'
export {
  type WithdrawUnbondedData,
  type WithdrawUnbondedMutationErrorType,
  type WithdrawUnbondedOptions,
  type WithdrawUnbondedVariables,
  withdrawUnbondedInvalidates,
  withdrawUnbondedMutationOptions,
} from './withdrawUnbonded.js'
export type { WalletErrorType } from './write.js'
