/**
 * `@gridforge/sdk`: viem-native actions for the Gridforge GPU compute market.
 * Every action is a standalone function `(client, parameters)`; bind them all
 * with `client.extend(gridforgeActions({ deployment }))`.
 *
 * @packageDocumentation
 */
export {
  type Bound,
  type BoundArgs,
  type GridforgeActions,
  type GridforgeActionsParameters,
  gridforgeActions,
} from './clients/decorators/gridforge.js'
export { BaseError, type BaseErrorParameters, type BaseErrorType } from './errors/base.js'
export {
  ContractRevertedError,
  type ContractRevertedErrorType,
  type RevertHint,
  type RevertHints,
} from './errors/contract.js'
export { leaseMarketHints, leaseParamBounds } from './errors/hints/leaseMarket.js'
export {
  LeaseGatewayError,
  type LeaseGatewayErrorType,
  LeaseNotFoundError,
  type LeaseNotFoundErrorType,
} from './errors/lease.js'
export {
  SourceInactiveError,
  type SourceInactiveErrorType,
  TaskNotOpenError,
  type TaskNotOpenErrorType,
} from './errors/quote.js'
export {
  TaskCancelledError,
  type TaskCancelledErrorType,
  TaskDeadlinePassedError,
  type TaskDeadlinePassedErrorType,
  TaskExpiredError,
  type TaskExpiredErrorType,
  TaskFailedError,
  type TaskFailedErrorType,
  TaskNotFoundError,
  type TaskNotFoundErrorType,
  TaskRevealClosedError,
  type TaskRevealClosedErrorType,
  type TaskSettlementErrorParameters,
  WaitForTaskTimeoutError,
  type WaitForTaskTimeoutErrorType,
} from './errors/task.js'
export {
  EventNotFoundError,
  type EventNotFoundErrorType,
  TransactionRevertedError,
  type TransactionRevertedErrorType,
} from './errors/transaction.js'
export {
  type InvalidField,
  InvalidParametersError,
  type InvalidParametersErrorType,
} from './errors/validation.js'
export {
  type AcceptOwnershipErrorType,
  type AcceptOwnershipParameters,
  type AcceptOwnershipReturnType,
  acceptOwnership,
} from './governance/acceptOwnership.js'
export { type OwnableContract, ownableContracts } from './governance/contracts.js'
export {
  type GetOwnershipErrorType,
  type GetOwnershipParameters,
  type GetOwnershipReturnType,
  getOwnership,
} from './governance/getOwnership.js'
export {
  type RenounceOwnershipErrorType,
  type RenounceOwnershipParameters,
  type RenounceOwnershipReturnType,
  renounceOwnership,
} from './governance/renounceOwnership.js'
export {
  type TransferOwnershipErrorType,
  type TransferOwnershipParameters,
  type TransferOwnershipReturnType,
  transferOwnership,
} from './governance/transferOwnership.js'
export {
  type CreateIndexerClientErrorType,
  type CreateIndexerClientParameters,
  type CreateIndexerClientReturnType,
  createIndexerClient,
  type IndexerClient,
  type IndexerErrorType,
  type IndexerFallback,
  type IndexerRequest,
} from './indexer/createIndexerClient.js'
export {
  IndexerParameterError,
  type IndexerParameterErrorType,
  IndexerRequestError,
  type IndexerRequestErrorType,
  IndexerResponseError,
  type IndexerResponseErrorType,
} from './indexer/errors.js'
export type { IndexerParameter } from './indexer/withIndexer.js'
export type { WriteOptions, WriteResult } from './internal/write.js'
export {
  type AcceptLeaseErrorType,
  type AcceptLeaseParameters,
  type AcceptLeaseReturnType,
  acceptLease,
} from './leases/acceptLease.js'
export { allLeaseErrors, leaseHints } from './leases/allLeaseErrors.js'
export {
  type ApproveLeaseMarketErrorType,
  type ApproveLeaseMarketParameters,
  type ApproveLeaseMarketReturnType,
  approveLeaseMarket,
} from './leases/approveLeaseMarket.js'
export {
  type CloseLeaseErrorType,
  type CloseLeaseParameters,
  type CloseLeaseReturnType,
  closeLease,
} from './leases/closeLease.js'
export {
  type CreateLeaseSessionKeyReturnType,
  createLeaseSessionKey,
} from './leases/createLeaseSessionKey.js'
export {
  type EndForSilenceErrorType,
  type EndForSilenceParameters,
  type EndForSilenceReturnType,
  endForSilence,
} from './leases/endForSilence.js'
export {
  type ExtendLeaseErrorType,
  type ExtendLeaseParameters,
  type ExtendLeaseReturnType,
  extendLease,
} from './leases/extendLease.js'
export type { FetchFunction } from './leases/gatewayFetch.js'
export {
  type GetLeaseErrorType,
  type GetLeaseParameters,
  type GetLeaseReturnType,
  getLease,
} from './leases/getLease.js'
export {
  type GetLeaseCostErrorType,
  type GetLeaseCostParameters,
  type GetLeaseCostReturnType,
  getLeaseCost,
} from './leases/getLeaseCost.js'
export {
  type GetLeaseEndErrorType,
  type GetLeaseEndParameters,
  type GetLeaseEndReturnType,
  getLeaseEnd,
} from './leases/getLeaseEnd.js'
export {
  type GetLeaseParamsErrorType,
  type GetLeaseParamsParameters,
  type GetLeaseParamsReturnType,
  getLeaseParams,
} from './leases/getLeaseParams.js'
export {
  type GiveNoticeErrorType,
  type GiveNoticeParameters,
  type GiveNoticeReturnType,
  giveNotice,
} from './leases/giveNotice.js'
export { type LeaseCost, leaseCost } from './leases/leaseCost.js'
export {
  type LeaseRequestArgs,
  leaseRequestFields,
  maxAcceptWindowSec,
  maxLeaseDurationSec,
  maxLeasePenaltySec,
  toLeaseRequest,
} from './leases/leaseRequest.js'
export {
  type CreateLeaseSignInMessageParameters,
  createLeaseSignInMessage,
  type LeaseRef,
  leaseResource,
  parseLeaseResource,
} from './leases/leaseSignInMessage.js'
export { gatewayPrefix, type LeaseUrlParameters, leaseUrl } from './leases/leaseUrl.js'
export {
  type ListLeasesErrorType,
  type ListLeasesParameters,
  type ListLeasesReturnType,
  listLeases,
} from './leases/listLeases.js'
export {
  type RedeemUsageErrorType,
  type RedeemUsageParameters,
  type RedeemUsageReturnType,
  redeemUsage,
} from './leases/redeemUsage.js'
export {
  type ReportOfflineErrorType,
  type ReportOfflineParameters,
  type ReportOfflineReturnType,
  reportOffline,
} from './leases/reportOffline.js'
export {
  type RequestLeaseErrorType,
  type RequestLeaseParameters,
  type RequestLeaseReturnType,
  requestLease,
} from './leases/requestLease.js'
export {
  type RequestLeaseWithPermitErrorType,
  type RequestLeaseWithPermitParameters,
  type RequestLeaseWithPermitReturnType,
  requestLeaseWithPermit,
} from './leases/requestLeaseWithPermit.js'
export {
  type SettleLeaseErrorType,
  type SettleLeaseParameters,
  type SettleLeaseReturnType,
  settleLease,
} from './leases/settleLease.js'
export {
  type SignInToLeaseErrorType,
  type SignInToLeaseParameters,
  type SignInToLeaseReturnType,
  signInToLease,
} from './leases/signInToLease.js'
export {
  type SignUsageErrorType,
  type SignUsageParameters,
  type SignUsageReturnType,
  signUsage,
} from './leases/signUsage.js'
export {
  type StartUsageAcknowledgerParameters,
  type StartUsageAcknowledgerReturnType,
  startUsageAcknowledger,
  type UsageAcknowledger,
  type UsageAcknowledgerStop,
} from './leases/startUsageAcknowledger.js'
export {
  type TopUpLeaseErrorType,
  type TopUpLeaseParameters,
  type TopUpLeaseReturnType,
  topUpLease,
} from './leases/topUpLease.js'
export {
  type TopUpLeaseWithPermitErrorType,
  type TopUpLeaseWithPermitParameters,
  type TopUpLeaseWithPermitReturnType,
  topUpLeaseWithPermit,
} from './leases/topUpLeaseWithPermit.js'
export { type SignedUsage, type Usage, usageDomain, usageTypes } from './leases/usage.js'
export {
  type WithdrawLeaseBalanceErrorType,
  type WithdrawLeaseBalanceParameters,
  type WithdrawLeaseBalanceReturnType,
  withdrawLeaseBalance,
} from './leases/withdrawLeaseBalance.js'
export type { LeaseSettlement } from './leases/write.js'
export {
  type ClaimCreatorFeesErrorType,
  type ClaimCreatorFeesParameters,
  type ClaimCreatorFeesReturnType,
  claimCreatorFees,
} from './market/claimCreatorFees.js'
export {
  type GetCollateralErrorType,
  type GetCollateralParameters,
  type GetCollateralReturnType,
  getCollateral,
} from './market/getCollateral.js'
export {
  type GetCreatorFeesErrorType,
  type GetCreatorFeesParameters,
  type GetCreatorFeesReturnType,
  getCreatorFees,
} from './market/getCreatorFees.js'
export {
  type GetNetworkStatsErrorType,
  type GetNetworkStatsParameters,
  type GetNetworkStatsReturnType,
  getNetworkStats,
} from './market/getNetworkStats.js'
export {
  type GetPendingStakerFeesErrorType,
  type GetPendingStakerFeesParameters,
  type GetPendingStakerFeesReturnType,
  getPendingStakerFees,
} from './market/getPendingStakerFees.js'
export {
  type GetProtocolParamsErrorType,
  type GetProtocolParamsParameters,
  type GetProtocolParamsReturnType,
  getProtocolParams,
  type ProtocolParams,
} from './market/getProtocolParams.js'
export {
  type GetTreasuryAccruedErrorType,
  type GetTreasuryAccruedParameters,
  type GetTreasuryAccruedReturnType,
  getTreasuryAccrued,
} from './market/getTreasuryAccrued.js'
export {
  type SetParamsErrorType,
  type SetParamsParameters,
  type SetParamsReturnType,
  setParams,
} from './market/setParams.js'
export {
  type SetTreasuryErrorType,
  type SetTreasuryParameters,
  type SetTreasuryReturnType,
  setTreasury,
} from './market/setTreasury.js'
export {
  type WithdrawTreasuryErrorType,
  type WithdrawTreasuryParameters,
  type WithdrawTreasuryReturnType,
  withdrawTreasury,
} from './market/withdrawTreasury.js'
export {
  type GetPriceFloorErrorType,
  type GetPriceFloorParameters,
  type GetPriceFloorReturnType,
  getPriceFloor,
} from './providers/getPriceFloor.js'
export {
  type GetProviderErrorType,
  type GetProviderParameters,
  type GetProviderReturnType,
  getProvider,
  type Provider,
} from './providers/getProvider.js'
export {
  type GetProviderRegistryParamsErrorType,
  type GetProviderRegistryParamsParameters,
  type GetProviderRegistryParamsReturnType,
  getProviderRegistryParams,
} from './providers/getProviderRegistryParams.js'
export {
  type GetProviderSummaryErrorType,
  type GetProviderSummaryParameters,
  type GetProviderSummaryReturnType,
  getProviderSummary,
  type ProviderEarnings,
  type ProviderLeaseEarnings,
  type ProviderRecord,
  type ProviderSummary,
} from './providers/getProviderSummary.js'
export {
  type GetReputationErrorType,
  type GetReputationParameters,
  type GetReputationReturnType,
  getReputation,
  type Reputation,
} from './providers/getReputation.js'
export {
  type IsSubscribedErrorType,
  type IsSubscribedParameters,
  type IsSubscribedReturnType,
  isSubscribed,
} from './providers/isSubscribed.js'
export {
  type PauseProviderErrorType,
  type PauseProviderParameters,
  type PauseProviderReturnType,
  pauseProvider,
} from './providers/pauseProvider.js'
export {
  type Capabilities,
  type RegisterProviderErrorType,
  type RegisterProviderParameters,
  type RegisterProviderReturnType,
  registerProvider,
} from './providers/registerProvider.js'
export {
  type ResumeProviderErrorType,
  type ResumeProviderParameters,
  type ResumeProviderReturnType,
  resumeProvider,
} from './providers/resumeProvider.js'
export {
  maxMinProviderStake,
  type SetMinProviderStakeErrorType,
  type SetMinProviderStakeParameters,
  type SetMinProviderStakeReturnType,
  setMinProviderStake,
} from './providers/setMinProviderStake.js'
export {
  type SetMinRecordPaymentErrorType,
  type SetMinRecordPaymentParameters,
  type SetMinRecordPaymentReturnType,
  setMinRecordPayment,
} from './providers/setMinRecordPayment.js'
export {
  type SetPriceFloorErrorType,
  type SetPriceFloorParameters,
  type SetPriceFloorReturnType,
  setPriceFloor,
} from './providers/setPriceFloor.js'
export {
  type SubscribeSourcesErrorType,
  type SubscribeSourcesParameters,
  type SubscribeSourcesReturnType,
  subscribeSources,
} from './providers/subscribeSources.js'
export {
  type UnsubscribeSourcesErrorType,
  type UnsubscribeSourcesParameters,
  type UnsubscribeSourcesReturnType,
  unsubscribeSources,
} from './providers/unsubscribeSources.js'
export {
  type UpdateCapabilitiesErrorType,
  type UpdateCapabilitiesParameters,
  type UpdateCapabilitiesReturnType,
  updateCapabilities,
} from './providers/updateCapabilities.js'
export {
  type CreateReceiptErrorType,
  type CreateReceiptParameters,
  type CreateReceiptReturnType,
  createReceipt,
} from './receipts/createReceipt.js'
export {
  InvalidReceiptError,
  type InvalidReceiptErrorType,
  ReceiptNotFoundError,
  type ReceiptNotFoundErrorType,
  ReceiptNotSubmittedError,
  type ReceiptNotSubmittedErrorType,
  ReceiptSignerMismatchError,
  type ReceiptSignerMismatchErrorType,
  ReceiptTooLargeError,
  type ReceiptTooLargeErrorType,
  TaskLogsNotFoundError,
  type TaskLogsNotFoundErrorType,
  TaskNotSettledError,
  type TaskNotSettledErrorType,
} from './receipts/errors.js'
export {
  defaultReceiptMaxBytes,
  type GetReceiptErrorType,
  type GetReceiptParameters,
  type GetReceiptReturnType,
  getReceipt,
  type MismatchedReceipt,
  type ReceiptResult,
  type ReceiptSettlement,
  type VerifiedReceipt,
} from './receipts/getReceipt.js'
export {
  maxReceiptGpus,
  type ParseReceiptErrorType,
  parseReceipt,
  parseUnsignedReceipt,
  type Receipt,
  type ReceiptGpu,
  type ReceiptHardware,
  receiptSchema,
  type UnsignedReceipt,
} from './receipts/schema.js'
export {
  type SignReceiptErrorType,
  type SignReceiptParameters,
  type SignReceiptReturnType,
  signReceipt,
} from './receipts/signReceipt.js'
export {
  hardwareHash,
  receiptDomain,
  receiptDomainName,
  receiptTypedData,
  receiptTypes,
} from './receipts/typedData.js'
export {
  type ReceiptMismatch,
  type VerifyReceiptErrorType,
  type VerifyReceiptParameters,
  type VerifyReceiptReturnType,
  verifyReceipt,
} from './receipts/verifyReceipt.js'
export {
  type DeactivateSourceErrorType,
  type DeactivateSourceParameters,
  type DeactivateSourceReturnType,
  deactivateSource,
} from './sources/deactivateSource.js'
export {
  type GetSourceErrorType,
  type GetSourceParameters,
  type GetSourceReturnType,
  getSource,
  type Source,
} from './sources/getSource.js'
export {
  type GetSourceCountErrorType,
  type GetSourceCountParameters,
  type GetSourceCountReturnType,
  getSourceCount,
} from './sources/getSourceCount.js'
export {
  type ListSourcesErrorType,
  type ListSourcesParameters,
  type ListSourcesReturnType,
  listSources,
} from './sources/listSources.js'
export {
  imageDigestOf,
  isLeaseSourceDocument,
  type LeaseSourceMetadata,
  type LeaseSourceMetadataInput,
  leaseSourceMetadataSchema,
  maxSourceMetadataBytes,
  type ParseSourceMetadataErrorType,
  parseLeaseSourceMetadata,
  parseSourceMetadata,
  requirementsOf,
  type SourceMetadata,
  type SourceMetadataInput,
  SourceMetadataTooLargeError,
  type SourceMetadataTooLargeErrorType,
  sourceMetadataSchema,
  sourceMetadataVersion,
} from './sources/metadata.js'
export {
  maxCreatorFeeBps,
  maxFailureFeeBps,
  maxSourceRuntimeSec,
  type PublishSourceErrorType,
  type PublishSourceParameters,
  type PublishSourceReturnType,
  publishSource,
} from './sources/publishSource.js'
export {
  type ReactivateSourceErrorType,
  type ReactivateSourceParameters,
  type ReactivateSourceReturnType,
  reactivateSource,
} from './sources/reactivateSource.js'
export {
  type TransferSourceErrorType,
  type TransferSourceParameters,
  type TransferSourceReturnType,
  transferSource,
} from './sources/transferSource.js'
export {
  type ClaimRewardsErrorType,
  type ClaimRewardsParameters,
  type ClaimRewardsReturnType,
  claimRewards,
} from './staking/claimRewards.js'
export {
  type DiscountTier,
  type GetDiscountTiersErrorType,
  type GetDiscountTiersParameters,
  type GetDiscountTiersReturnType,
  getDiscountTiers,
} from './staking/getDiscountTiers.js'
export {
  type GetFeeDiscountErrorType,
  type GetFeeDiscountParameters,
  type GetFeeDiscountReturnType,
  getFeeDiscount,
} from './staking/getFeeDiscount.js'
export {
  type GetRewardsErrorType,
  type GetRewardsParameters,
  type GetRewardsReturnType,
  getRewards,
} from './staking/getRewards.js'
export {
  type GetStakeErrorType,
  type GetStakeParameters,
  type GetStakeReturnType,
  getStake,
} from './staking/getStake.js'
export {
  type GetStakingParamsErrorType,
  type GetStakingParamsParameters,
  type GetStakingParamsReturnType,
  getStakingParams,
} from './staking/getStakingParams.js'
export {
  type RequestUnbondErrorType,
  type RequestUnbondParameters,
  type RequestUnbondReturnType,
  requestUnbond,
} from './staking/requestUnbond.js'
export {
  maxDiscountBps,
  maxDiscountTiers,
  type SetDiscountTiersErrorType,
  type SetDiscountTiersParameters,
  type SetDiscountTiersReturnType,
  setDiscountTiers,
} from './staking/setDiscountTiers.js'
export {
  maxUnbondingPeriodSec,
  minUnbondingPeriodSec,
  type SetUnbondingPeriodErrorType,
  type SetUnbondingPeriodParameters,
  type SetUnbondingPeriodReturnType,
  setUnbondingPeriod,
} from './staking/setUnbondingPeriod.js'
export { type StakeErrorType, type StakeParameters, type StakeReturnType, stake } from './staking/stake.js'
export {
  type WithdrawUnbondedErrorType,
  type WithdrawUnbondedParameters,
  type WithdrawUnbondedReturnType,
  withdrawUnbonded,
} from './staking/withdrawUnbonded.js'
export {
  type CancelTaskErrorType,
  type CancelTaskParameters,
  type CancelTaskReturnType,
  cancelTask,
} from './tasks/cancelTask.js'
export { type ClaimHistory, candidatesPerTask, summarizeClaims } from './tasks/claimHistory.js'
export {
  type ClaimantState,
  type ClaimRefusal,
  type ClaimRefusalReason,
  type ClaimTerms,
  claimRefusalReasons,
  claimRefusals,
} from './tasks/claimRefusals.js'
export {
  type ClaimTaskErrorType,
  type ClaimTaskParameters,
  type ClaimTaskReturnType,
  claimTask,
} from './tasks/claimTask.js'
export {
  type ComputeCommitmentParameters,
  computeCommitment,
  generateSalt,
  resultDigest,
  UnsupportedResultCidError,
  type UnsupportedResultCidErrorType,
} from './tasks/commitment.js'
export {
  type CommitResultErrorType,
  type CommitResultParameters,
  type CommitResultReturnType,
  commitResult,
} from './tasks/commitResult.js'
export {
  type ExpireTaskErrorType,
  type ExpireTaskParameters,
  type ExpireTaskReturnType,
  expireTask,
} from './tasks/expireTask.js'
export {
  type Failure,
  type FailureDigestErrorType,
  type FailureKind,
  failureDigest,
  failureKinds,
  formatFailure,
  parseFailure,
  type Validation,
  validationDigest,
} from './tasks/failures.js'
export {
  type FinalizeTaskAdvancedReturnType,
  type FinalizeTaskErrorType,
  type FinalizeTaskParameters,
  type FinalizeTaskReturnType,
  type FinalizeTaskSettledReturnType,
  finalizeTask,
} from './tasks/finalizeTask.js'
export {
  type GetAuditErrorType,
  type GetAuditParameters,
  type GetAuditReturnType,
  getAudit,
} from './tasks/getAudit.js'
export {
  type GetAuditDrawErrorType,
  type GetAuditDrawParameters,
  type GetAuditDrawReturnType,
  getAuditDraw,
} from './tasks/getAuditDraw.js'
export {
  type GetTaskErrorType,
  type GetTaskParameters,
  type GetTaskReturnType,
  getTask,
} from './tasks/getTask.js'
export {
  type GetTaskResultErrorType,
  type GetTaskResultParameters,
  type GetTaskResultReturnType,
  getTaskResult,
  type SlotResult,
} from './tasks/getTaskResult.js'
export {
  type GetTasksErrorType,
  type GetTasksParameters,
  type GetTasksReturnType,
  getTasks,
} from './tasks/getTasks.js'
export {
  auditReseededSlot,
  type JoinAuditErrorType,
  type JoinAuditParameters,
  type JoinAuditReturnType,
  joinAudit,
} from './tasks/joinAudit.js'
export {
  type ListTasksErrorType,
  type ListTasksParameters,
  type ListTasksReturnType,
  listTasks,
} from './tasks/listTasks.js'
export { type PricedTerms, pricePerGpuSecond } from './tasks/pricePerGpuSecond.js'
export type { ClaimWindowClosure, QuotedTerms } from './tasks/quotedTerms.js'
export {
  type IneligibleProvider,
  type QuoteTaskErrorType,
  type QuoteTaskParameters,
  type QuoteTaskReadOptions,
  type QuoteTaskReturnType,
  type QuoteTaskTerms,
  quoteTask,
  type TaskQuote,
} from './tasks/quoteTask.js'
export {
  type ReleaseResultErrorType,
  type ReleaseResultParameters,
  type ReleaseResultReturnType,
  releaseResult,
} from './tasks/releaseResult.js'
export {
  type ReopenSlotErrorType,
  type ReopenSlotParameters,
  type ReopenSlotReturnType,
  reopenSlot,
} from './tasks/reopenSlot.js'
export {
  type RevealResultErrorType,
  type RevealResultParameters,
  type RevealResultReturnType,
  revealResult,
} from './tasks/revealResult.js'
export {
  type SealResultErrorType,
  type SealResultParameters,
  type SealResultReturnType,
  sealResult,
} from './tasks/seal.js'
export {
  type SubmitResultErrorType,
  type SubmitResultParameters,
  type SubmitResultReturnType,
  submitResult,
} from './tasks/submitResult.js'
export {
  maxTaskDurationSec,
  type SubmitTaskErrorType,
  type SubmitTaskParameters,
  type SubmitTaskReturnType,
  submitTask,
} from './tasks/submitTask.js'
export {
  type SubmitTasksErrorType,
  type SubmitTasksParameters,
  type SubmitTasksReturnType,
  submitTasks,
  type TaskSubmission,
} from './tasks/submitTasks.js'
export {
  type SubmitTaskWithPermitErrorType,
  type SubmitTaskWithPermitParameters,
  type SubmitTaskWithPermitReturnType,
  submitTaskWithPermit,
} from './tasks/submitTaskWithPermit.js'
export {
  type TaskProgress,
  type WaitForTaskErrorType,
  type WaitForTaskParameters,
  type WaitForTaskReturnType,
  waitForTask,
} from './tasks/waitForTask.js'
export {
  type TaskEvent,
  type TaskEventName,
  taskEvents,
  type WatchTaskErrorType,
  type WatchTaskParameters,
  type WatchTaskReturnType,
  watchTask,
} from './tasks/watchTask.js'
export {
  type TaskClaimedEvent,
  type TaskEventLocation,
  type TaskSettledEvent,
  type TaskSubmittedEvent,
  type WatchTasksErrorType,
  type WatchTasksParameters,
  type WatchTasksReturnType,
  watchTasks,
} from './tasks/watchTasks.js'
export type { Deployment, DeploymentParameter } from './types/deployment.js'
export {
  type Lease,
  type LeaseEndReason,
  type LeaseStatus,
  leaseEndReasons,
  leaseStatuses,
} from './types/lease.js'
export type { Requirements } from './types/requirements.js'
export type {
  AuditResolution,
  AuditRound,
  ProviderSlash,
  ReplicaPayment,
  RuntimeOverstatement,
  SettledStatus,
  TaskSettlement,
  TaskSettlementRecord,
} from './types/settlement.js'
export {
  type AuditVerdict,
  auditVerdicts,
  finalTaskStatuses,
  isFinalStatus,
  type Slot,
  type SlotStatus,
  slotStatuses,
  type Task,
  type TaskAudit,
  type TaskGates,
  type TaskStatus,
  taskStatuses,
} from './types/task.js'
export { type Amount, formatAmount, gridToken, parseAmount, type TokenInfo } from './utils/amount.js'
export { isCid, maxCidLength, type ParsedCid, parseCid } from './utils/cid.js'
export { type Duration, formatDuration, parseDuration } from './utils/duration.js'
export {
  type ApproveMarketErrorType,
  type ApproveMarketParameters,
  type ApproveMarketReturnType,
  approveMarket,
} from './wallet/approveMarket.js'
export {
  type DepositErrorType,
  type DepositParameters,
  type DepositReturnType,
  deposit,
} from './wallet/deposit.js'
export type { FundingOptions } from './wallet/funding.js'
export {
  type GetWalletBalanceErrorType,
  type GetWalletBalanceParameters,
  type GetWalletBalanceReturnType,
  getWalletBalance,
} from './wallet/getWalletBalance.js'
export {
  PermitNotSupportedError,
  type PermitNotSupportedErrorType,
  type PermitSignature,
  type SignPermitErrorType,
  type SignPermitParameters,
  type SignPermitReturnType,
  signPermit,
} from './wallet/signPermit.js'
export {
  type WithdrawErrorType,
  type WithdrawParameters,
  type WithdrawReturnType,
  withdraw,
} from './wallet/withdraw.js'
