import type { Account, Chain, Client, Transport } from 'viem'
import { type AcceptOwnershipParameters, acceptOwnership } from '../../governance/acceptOwnership.js'
import { type GetOwnershipParameters, getOwnership } from '../../governance/getOwnership.js'
import { type RenounceOwnershipParameters, renounceOwnership } from '../../governance/renounceOwnership.js'
import { type TransferOwnershipParameters, transferOwnership } from '../../governance/transferOwnership.js'
import type { IndexerClient } from '../../indexer/createIndexerClient.js'
import { type AcceptLeaseParameters, acceptLease } from '../../leases/acceptLease.js'
import { type ApproveLeaseMarketParameters, approveLeaseMarket } from '../../leases/approveLeaseMarket.js'
import { type CloseLeaseParameters, closeLease } from '../../leases/closeLease.js'
import { type EndForSilenceParameters, endForSilence } from '../../leases/endForSilence.js'
import { type ExtendLeaseParameters, extendLease } from '../../leases/extendLease.js'
import { type GetLeaseParameters, getLease } from '../../leases/getLease.js'
import { type GetLeaseCostParameters, getLeaseCost } from '../../leases/getLeaseCost.js'
import { type GetLeaseEndParameters, getLeaseEnd } from '../../leases/getLeaseEnd.js'
import { type GetLeaseParamsParameters, getLeaseParams } from '../../leases/getLeaseParams.js'
import { type GiveNoticeParameters, giveNotice } from '../../leases/giveNotice.js'
import { type ListLeasesParameters, listLeases } from '../../leases/listLeases.js'
import { type RedeemUsageParameters, redeemUsage } from '../../leases/redeemUsage.js'
import { type ReportOfflineParameters, reportOffline } from '../../leases/reportOffline.js'
import { type RequestLeaseParameters, requestLease } from '../../leases/requestLease.js'
import {
  type RequestLeaseWithPermitParameters,
  requestLeaseWithPermit,
} from '../../leases/requestLeaseWithPermit.js'
import { type SettleLeaseParameters, settleLease } from '../../leases/settleLease.js'
import { type SignInToLeaseParameters, signInToLease } from '../../leases/signInToLease.js'
import { type TopUpLeaseParameters, topUpLease } from '../../leases/topUpLease.js'
import {
  type TopUpLeaseWithPermitParameters,
  topUpLeaseWithPermit,
} from '../../leases/topUpLeaseWithPermit.js'
import {
  type WithdrawLeaseBalanceParameters,
  withdrawLeaseBalance,
} from '../../leases/withdrawLeaseBalance.js'
import { type ClaimCreatorFeesParameters, claimCreatorFees } from '../../market/claimCreatorFees.js'
import { type GetCollateralParameters, getCollateral } from '../../market/getCollateral.js'
import { type GetCreatorFeesParameters, getCreatorFees } from '../../market/getCreatorFees.js'
import { type GetNetworkStatsParameters, getNetworkStats } from '../../market/getNetworkStats.js'
import {
  type GetPendingStakerFeesParameters,
  getPendingStakerFees,
} from '../../market/getPendingStakerFees.js'
import { type GetProtocolParamsParameters, getProtocolParams } from '../../market/getProtocolParams.js'
import { type GetTreasuryAccruedParameters, getTreasuryAccrued } from '../../market/getTreasuryAccrued.js'
import { type SetParamsParameters, setParams } from '../../market/setParams.js'
import { type SetTreasuryParameters, setTreasury } from '../../market/setTreasury.js'
import { type WithdrawTreasuryParameters, withdrawTreasury } from '../../market/withdrawTreasury.js'
import { type GetPriceFloorParameters, getPriceFloor } from '../../providers/getPriceFloor.js'
import { type GetProviderParameters, getProvider } from '../../providers/getProvider.js'
import {
  type GetProviderRegistryParamsParameters,
  getProviderRegistryParams,
} from '../../providers/getProviderRegistryParams.js'
import { type GetProviderSummaryParameters, getProviderSummary } from '../../providers/getProviderSummary.js'
import { type GetReputationParameters, getReputation } from '../../providers/getReputation.js'
import { type IsSubscribedParameters, isSubscribed } from '../../providers/isSubscribed.js'
import { type PauseProviderParameters, pauseProvider } from '../../providers/pauseProvider.js'
import { type RegisterProviderParameters, registerProvider } from '../../providers/registerProvider.js'
import { type ResumeProviderParameters, resumeProvider } from '../../providers/resumeProvider.js'
import {
  type SetMinProviderStakeParameters,
  setMinProviderStake,
} from '../../providers/setMinProviderStake.js'
import {
  type SetMinRecordPaymentParameters,
  setMinRecordPayment,
} from '../../providers/setMinRecordPayment.js'
import { type SetPriceFloorParameters, setPriceFloor } from '../../providers/setPriceFloor.js'
import { type SubscribeSourcesParameters, subscribeSources } from '../../providers/subscribeSources.js'
import { type UnsubscribeSourcesParameters, unsubscribeSources } from '../../providers/unsubscribeSources.js'
import { type UpdateCapabilitiesParameters, updateCapabilities } from '../../providers/updateCapabilities.js'
import { type CreateReceiptParameters, createReceipt } from '../../receipts/createReceipt.js'
import { type GetReceiptParameters, getReceipt } from '../../receipts/getReceipt.js'
import { type DeactivateSourceParameters, deactivateSource } from '../../sources/deactivateSource.js'
import { type GetSourceParameters, getSource } from '../../sources/getSource.js'
import { type GetSourceCountParameters, getSourceCount } from '../../sources/getSourceCount.js'
import { type ListSourcesParameters, listSources } from '../../sources/listSources.js'
import { type PublishSourceParameters, publishSource } from '../../sources/publishSource.js'
import { type ReactivateSourceParameters, reactivateSource } from '../../sources/reactivateSource.js'
import { type TransferSourceParameters, transferSource } from '../../sources/transferSource.js'
import { type ClaimRewardsParameters, claimRewards } from '../../staking/claimRewards.js'
import { type GetDiscountTiersParameters, getDiscountTiers } from '../../staking/getDiscountTiers.js'
import { type GetFeeDiscountParameters, getFeeDiscount } from '../../staking/getFeeDiscount.js'
import { type GetRewardsParameters, getRewards } from '../../staking/getRewards.js'
import { type GetStakeParameters, getStake } from '../../staking/getStake.js'
import { type GetStakingParamsParameters, getStakingParams } from '../../staking/getStakingParams.js'
import { type RequestUnbondParameters, requestUnbond } from '../../staking/requestUnbond.js'
import { type SetDiscountTiersParameters, setDiscountTiers } from '../../staking/setDiscountTiers.js'
import { type SetUnbondingPeriodParameters, setUnbondingPeriod } from '../../staking/setUnbondingPeriod.js'
import { type StakeParameters, stake } from '../../staking/stake.js'
import { type WithdrawUnbondedParameters, withdrawUnbonded } from '../../staking/withdrawUnbonded.js'
import { type CancelTaskParameters, cancelTask } from '../../tasks/cancelTask.js'
import { type ClaimTaskParameters, claimTask } from '../../tasks/claimTask.js'
import { type CommitResultParameters, commitResult } from '../../tasks/commitResult.js'
import { type ExpireTaskParameters, expireTask } from '../../tasks/expireTask.js'
import { type FinalizeTaskParameters, finalizeTask } from '../../tasks/finalizeTask.js'
import { type GetAuditParameters, getAudit } from '../../tasks/getAudit.js'
import { type GetAuditDrawParameters, getAuditDraw } from '../../tasks/getAuditDraw.js'
import { type GetTaskParameters, getTask } from '../../tasks/getTask.js'
import { type GetTaskResultParameters, getTaskResult } from '../../tasks/getTaskResult.js'
import { type GetTasksParameters, getTasks } from '../../tasks/getTasks.js'
import { type JoinAuditParameters, joinAudit } from '../../tasks/joinAudit.js'
import { type ListTasksParameters, listTasks } from '../../tasks/listTasks.js'
import { type QuoteTaskParameters, quoteTask } from '../../tasks/quoteTask.js'
import { type ReleaseResultParameters, releaseResult } from '../../tasks/releaseResult.js'
import { type ReopenSlotParameters, reopenSlot } from '../../tasks/reopenSlot.js'
import { type RevealResultParameters, revealResult } from '../../tasks/revealResult.js'
import { type SubmitResultParameters, submitResult } from '../../tasks/submitResult.js'
import { type SubmitTaskParameters, submitTask } from '../../tasks/submitTask.js'
import { type SubmitTasksParameters, submitTasks } from '../../tasks/submitTasks.js'
import {
  type SubmitTaskWithPermitParameters,
  submitTaskWithPermit,
} from '../../tasks/submitTaskWithPermit.js'
import { type WaitForTaskParameters, waitForTask } from '../../tasks/waitForTask.js'
import { type WatchTaskParameters, watchTask } from '../../tasks/watchTask.js'
import { type WatchTasksParameters, watchTasks } from '../../tasks/watchTasks.js'
import type { Deployment } from '../../types/deployment.js'
import { type ApproveMarketParameters, approveMarket } from '../../wallet/approveMarket.js'
import { type DepositParameters, deposit } from '../../wallet/deposit.js'
import { type GetWalletBalanceParameters, getWalletBalance } from '../../wallet/getWalletBalance.js'
import { type SignPermitParameters, signPermit } from '../../wallet/signPermit.js'
import { type WithdrawParameters, withdraw } from '../../wallet/withdraw.js'

/** An action's parameters as the decorated client takes them: the deployment (and indexer) are already bound. */
export type Bound<parameters> =
  // Distributed over a union of parameter shapes (quoteTask takes terms or a task id): Omit of a union keeps
  // only the keys every member has.
  parameters extends unknown
    ? Omit<parameters, 'deployment'> & { deployment?: Deployment | undefined }
    : never

/** What `gridforgeActions` binds to every action. */
export interface GridforgeActionsParameters {
  /** Where Gridforge lives on the client's chain. */
  deployment: Deployment
  /**
   * The Gridforge indexer (its URL, or a `createIndexerClient`) that the list
   * and statistics actions (`listTasks`, `listLeases`, `listSources`, `getNetworkStats`, `getProviderSummary`) read
   * instead of the chain's logs; they read the chain when it cannot answer.
   */
  indexer?: string | IndexerClient | undefined
}

/** A decorated action's arguments: optional when nothing but the deployment is required. */
export type BoundArgs<parameters> =
  {} extends Omit<parameters, 'deployment'>
    ? [parameters?: Bound<parameters>]
    : [parameters: Bound<parameters>]

/** The actions `client.extend(gridforgeActions({ deployment }))` adds: every standalone action, bound. */
export type GridforgeActions = {
  /** {@inheritDoc acceptOwnership} */
  acceptOwnership: (...parameters: BoundArgs<AcceptOwnershipParameters>) => ReturnType<typeof acceptOwnership>
  /** {@inheritDoc getOwnership} */
  getOwnership: (...parameters: BoundArgs<GetOwnershipParameters>) => ReturnType<typeof getOwnership>
  /** {@inheritDoc renounceOwnership} */
  renounceOwnership: (
    ...parameters: BoundArgs<RenounceOwnershipParameters>
  ) => ReturnType<typeof renounceOwnership>
  /** {@inheritDoc transferOwnership} */
  transferOwnership: (
    ...parameters: BoundArgs<TransferOwnershipParameters>
  ) => ReturnType<typeof transferOwnership>
  /** {@inheritDoc deactivateSource} */
  deactivateSource: (
    ...parameters: BoundArgs<DeactivateSourceParameters>
  ) => ReturnType<typeof deactivateSource>
  /** {@inheritDoc getSource} */
  getSource: (...parameters: BoundArgs<GetSourceParameters>) => ReturnType<typeof getSource>
  /** {@inheritDoc getSourceCount} */
  getSourceCount: (...parameters: BoundArgs<GetSourceCountParameters>) => ReturnType<typeof getSourceCount>
  /** {@inheritDoc listSources} */
  listSources: (...parameters: BoundArgs<ListSourcesParameters>) => ReturnType<typeof listSources>
  /** {@inheritDoc publishSource} */
  publishSource: (...parameters: BoundArgs<PublishSourceParameters>) => ReturnType<typeof publishSource>
  /** {@inheritDoc reactivateSource} */
  reactivateSource: (
    ...parameters: BoundArgs<ReactivateSourceParameters>
  ) => ReturnType<typeof reactivateSource>
  /** {@inheritDoc transferSource} */
  transferSource: (...parameters: BoundArgs<TransferSourceParameters>) => ReturnType<typeof transferSource>
  /** {@inheritDoc getPriceFloor} */
  getPriceFloor: (...parameters: BoundArgs<GetPriceFloorParameters>) => ReturnType<typeof getPriceFloor>
  /** {@inheritDoc getProvider} */
  getProvider: (...parameters: BoundArgs<GetProviderParameters>) => ReturnType<typeof getProvider>
  /** {@inheritDoc getProviderRegistryParams} */
  getProviderRegistryParams: (
    ...parameters: BoundArgs<GetProviderRegistryParamsParameters>
  ) => ReturnType<typeof getProviderRegistryParams>
  /** {@inheritDoc getProviderSummary} */
  getProviderSummary: (
    ...parameters: BoundArgs<GetProviderSummaryParameters>
  ) => ReturnType<typeof getProviderSummary>
  /** {@inheritDoc getReputation} */
  getReputation: (...parameters: BoundArgs<GetReputationParameters>) => ReturnType<typeof getReputation>
  /** {@inheritDoc isSubscribed} */
  isSubscribed: (...parameters: BoundArgs<IsSubscribedParameters>) => ReturnType<typeof isSubscribed>
  /** {@inheritDoc pauseProvider} */
  pauseProvider: (...parameters: BoundArgs<PauseProviderParameters>) => ReturnType<typeof pauseProvider>
  /** {@inheritDoc registerProvider} */
  registerProvider: (
    ...parameters: BoundArgs<RegisterProviderParameters>
  ) => ReturnType<typeof registerProvider>
  /** {@inheritDoc resumeProvider} */
  resumeProvider: (...parameters: BoundArgs<ResumeProviderParameters>) => ReturnType<typeof resumeProvider>
  /** {@inheritDoc setMinProviderStake} */
  setMinProviderStake: (
    ...parameters: BoundArgs<SetMinProviderStakeParameters>
  ) => ReturnType<typeof setMinProviderStake>
  /** {@inheritDoc setMinRecordPayment} */
  setMinRecordPayment: (
    ...parameters: BoundArgs<SetMinRecordPaymentParameters>
  ) => ReturnType<typeof setMinRecordPayment>
  /** {@inheritDoc setPriceFloor} */
  setPriceFloor: (...parameters: BoundArgs<SetPriceFloorParameters>) => ReturnType<typeof setPriceFloor>
  /** {@inheritDoc subscribeSources} */
  subscribeSources: (
    ...parameters: BoundArgs<SubscribeSourcesParameters>
  ) => ReturnType<typeof subscribeSources>
  /** {@inheritDoc unsubscribeSources} */
  unsubscribeSources: (
    ...parameters: BoundArgs<UnsubscribeSourcesParameters>
  ) => ReturnType<typeof unsubscribeSources>
  /** {@inheritDoc updateCapabilities} */
  updateCapabilities: (
    ...parameters: BoundArgs<UpdateCapabilitiesParameters>
  ) => ReturnType<typeof updateCapabilities>
  /** {@inheritDoc claimRewards} */
  claimRewards: (...parameters: BoundArgs<ClaimRewardsParameters>) => ReturnType<typeof claimRewards>
  /** {@inheritDoc getDiscountTiers} */
  getDiscountTiers: (
    ...parameters: BoundArgs<GetDiscountTiersParameters>
  ) => ReturnType<typeof getDiscountTiers>
  /** {@inheritDoc getFeeDiscount} */
  getFeeDiscount: (...parameters: BoundArgs<GetFeeDiscountParameters>) => ReturnType<typeof getFeeDiscount>
  /** {@inheritDoc getRewards} */
  getRewards: (...parameters: BoundArgs<GetRewardsParameters>) => ReturnType<typeof getRewards>
  /** {@inheritDoc getStake} */
  getStake: (...parameters: BoundArgs<GetStakeParameters>) => ReturnType<typeof getStake>
  /** {@inheritDoc getStakingParams} */
  getStakingParams: (
    ...parameters: BoundArgs<GetStakingParamsParameters>
  ) => ReturnType<typeof getStakingParams>
  /** {@inheritDoc requestUnbond} */
  requestUnbond: (...parameters: BoundArgs<RequestUnbondParameters>) => ReturnType<typeof requestUnbond>
  /** {@inheritDoc setDiscountTiers} */
  setDiscountTiers: (
    ...parameters: BoundArgs<SetDiscountTiersParameters>
  ) => ReturnType<typeof setDiscountTiers>
  /** {@inheritDoc setUnbondingPeriod} */
  setUnbondingPeriod: (
    ...parameters: BoundArgs<SetUnbondingPeriodParameters>
  ) => ReturnType<typeof setUnbondingPeriod>
  /** {@inheritDoc stake} */
  stake: (...parameters: BoundArgs<StakeParameters>) => ReturnType<typeof stake>
  /** {@inheritDoc withdrawUnbonded} */
  withdrawUnbonded: (
    ...parameters: BoundArgs<WithdrawUnbondedParameters>
  ) => ReturnType<typeof withdrawUnbonded>
  /** {@inheritDoc approveMarket} */
  approveMarket: (...parameters: BoundArgs<ApproveMarketParameters>) => ReturnType<typeof approveMarket>
  /** {@inheritDoc deposit} */
  deposit: (...parameters: BoundArgs<DepositParameters>) => ReturnType<typeof deposit>
  /** {@inheritDoc getWalletBalance} */
  getWalletBalance: (
    ...parameters: BoundArgs<GetWalletBalanceParameters>
  ) => ReturnType<typeof getWalletBalance>
  /** {@inheritDoc signPermit} */
  signPermit: (...parameters: BoundArgs<SignPermitParameters>) => ReturnType<typeof signPermit>
  /** {@inheritDoc withdraw} */
  withdraw: (...parameters: BoundArgs<WithdrawParameters>) => ReturnType<typeof withdraw>
  /** {@inheritDoc approveLeaseMarket} */
  approveLeaseMarket: (
    ...parameters: BoundArgs<ApproveLeaseMarketParameters>
  ) => ReturnType<typeof approveLeaseMarket>
  /** {@inheritDoc requestLease} */
  requestLease: (...parameters: BoundArgs<RequestLeaseParameters>) => ReturnType<typeof requestLease>
  /** {@inheritDoc requestLeaseWithPermit} */
  requestLeaseWithPermit: (
    ...parameters: BoundArgs<RequestLeaseWithPermitParameters>
  ) => ReturnType<typeof requestLeaseWithPermit>
  /** {@inheritDoc acceptLease} */
  acceptLease: (...parameters: BoundArgs<AcceptLeaseParameters>) => ReturnType<typeof acceptLease>
  /** {@inheritDoc topUpLease} */
  topUpLease: (...parameters: BoundArgs<TopUpLeaseParameters>) => ReturnType<typeof topUpLease>
  /** {@inheritDoc topUpLeaseWithPermit} */
  topUpLeaseWithPermit: (
    ...parameters: BoundArgs<TopUpLeaseWithPermitParameters>
  ) => ReturnType<typeof topUpLeaseWithPermit>
  /** {@inheritDoc extendLease} */
  extendLease: (...parameters: BoundArgs<ExtendLeaseParameters>) => ReturnType<typeof extendLease>
  /** {@inheritDoc closeLease} */
  closeLease: (...parameters: BoundArgs<CloseLeaseParameters>) => ReturnType<typeof closeLease>
  /** {@inheritDoc reportOffline} */
  reportOffline: (...parameters: BoundArgs<ReportOfflineParameters>) => ReturnType<typeof reportOffline>
  /** {@inheritDoc giveNotice} */
  giveNotice: (...parameters: BoundArgs<GiveNoticeParameters>) => ReturnType<typeof giveNotice>
  /** {@inheritDoc redeemUsage} */
  redeemUsage: (...parameters: BoundArgs<RedeemUsageParameters>) => ReturnType<typeof redeemUsage>
  /** {@inheritDoc endForSilence} */
  endForSilence: (...parameters: BoundArgs<EndForSilenceParameters>) => ReturnType<typeof endForSilence>
  /** {@inheritDoc settleLease} */
  settleLease: (...parameters: BoundArgs<SettleLeaseParameters>) => ReturnType<typeof settleLease>
  /** {@inheritDoc withdrawLeaseBalance} */
  withdrawLeaseBalance: (
    ...parameters: BoundArgs<WithdrawLeaseBalanceParameters>
  ) => ReturnType<typeof withdrawLeaseBalance>
  /** {@inheritDoc getLease} */
  getLease: (...parameters: BoundArgs<GetLeaseParameters>) => ReturnType<typeof getLease>
  /** {@inheritDoc getLeaseEnd} */
  getLeaseEnd: (...parameters: BoundArgs<GetLeaseEndParameters>) => ReturnType<typeof getLeaseEnd>
  /** {@inheritDoc getLeaseCost} */
  getLeaseCost: (...parameters: BoundArgs<GetLeaseCostParameters>) => ReturnType<typeof getLeaseCost>
  /** {@inheritDoc getLeaseParams} */
  getLeaseParams: (...parameters: BoundArgs<GetLeaseParamsParameters>) => ReturnType<typeof getLeaseParams>
  /** {@inheritDoc listLeases} */
  listLeases: (...parameters: BoundArgs<ListLeasesParameters>) => ReturnType<typeof listLeases>
  /** {@inheritDoc signInToLease} */
  signInToLease: (...parameters: BoundArgs<SignInToLeaseParameters>) => ReturnType<typeof signInToLease>
  /** {@inheritDoc cancelTask} */
  cancelTask: (...parameters: BoundArgs<CancelTaskParameters>) => ReturnType<typeof cancelTask>
  /** {@inheritDoc claimTask} */
  claimTask: (...parameters: BoundArgs<ClaimTaskParameters>) => ReturnType<typeof claimTask>
  /** {@inheritDoc commitResult} */
  commitResult: (...parameters: BoundArgs<CommitResultParameters>) => ReturnType<typeof commitResult>
  /** {@inheritDoc expireTask} */
  expireTask: (...parameters: BoundArgs<ExpireTaskParameters>) => ReturnType<typeof expireTask>
  /** {@inheritDoc finalizeTask} */
  finalizeTask: (...parameters: BoundArgs<FinalizeTaskParameters>) => ReturnType<typeof finalizeTask>
  /** {@inheritDoc getAudit} */
  getAudit: (...parameters: BoundArgs<GetAuditParameters>) => ReturnType<typeof getAudit>
  /** {@inheritDoc getAuditDraw} */
  getAuditDraw: (...parameters: BoundArgs<GetAuditDrawParameters>) => ReturnType<typeof getAuditDraw>
  /** {@inheritDoc getTask} */
  getTask: (...parameters: BoundArgs<GetTaskParameters>) => ReturnType<typeof getTask>
  /** {@inheritDoc getTaskResult} */
  getTaskResult: (...parameters: BoundArgs<GetTaskResultParameters>) => ReturnType<typeof getTaskResult>
  /** {@inheritDoc getTasks} */
  getTasks: (...parameters: BoundArgs<GetTasksParameters>) => ReturnType<typeof getTasks>
  /** {@inheritDoc joinAudit} */
  joinAudit: (...parameters: BoundArgs<JoinAuditParameters>) => ReturnType<typeof joinAudit>
  /** {@inheritDoc listTasks} */
  listTasks: (...parameters: BoundArgs<ListTasksParameters>) => ReturnType<typeof listTasks>
  /** {@inheritDoc quoteTask} */
  quoteTask: (...parameters: BoundArgs<QuoteTaskParameters>) => ReturnType<typeof quoteTask>
  /** {@inheritDoc releaseResult} */
  releaseResult: (...parameters: BoundArgs<ReleaseResultParameters>) => ReturnType<typeof releaseResult>
  /** {@inheritDoc reopenSlot} */
  reopenSlot: (...parameters: BoundArgs<ReopenSlotParameters>) => ReturnType<typeof reopenSlot>
  /** {@inheritDoc revealResult} */
  revealResult: (...parameters: BoundArgs<RevealResultParameters>) => ReturnType<typeof revealResult>
  /** {@inheritDoc submitResult} */
  submitResult: (...parameters: BoundArgs<SubmitResultParameters>) => ReturnType<typeof submitResult>
  /** {@inheritDoc submitTask} */
  submitTask: (...parameters: BoundArgs<SubmitTaskParameters>) => ReturnType<typeof submitTask>
  /** {@inheritDoc submitTaskWithPermit} */
  submitTaskWithPermit: (
    ...parameters: BoundArgs<SubmitTaskWithPermitParameters>
  ) => ReturnType<typeof submitTaskWithPermit>
  /** {@inheritDoc submitTasks} */
  submitTasks: (...parameters: BoundArgs<SubmitTasksParameters>) => ReturnType<typeof submitTasks>
  /** {@inheritDoc waitForTask} */
  waitForTask: (...parameters: BoundArgs<WaitForTaskParameters>) => ReturnType<typeof waitForTask>
  /** {@inheritDoc watchTask} */
  watchTask: (...parameters: BoundArgs<WatchTaskParameters>) => ReturnType<typeof watchTask>
  /** {@inheritDoc watchTasks} */
  watchTasks: (...parameters: BoundArgs<WatchTasksParameters>) => ReturnType<typeof watchTasks>
  /** {@inheritDoc claimCreatorFees} */
  claimCreatorFees: (
    ...parameters: BoundArgs<ClaimCreatorFeesParameters>
  ) => ReturnType<typeof claimCreatorFees>
  /** {@inheritDoc getCollateral} */
  getCollateral: (...parameters: BoundArgs<GetCollateralParameters>) => ReturnType<typeof getCollateral>
  /** {@inheritDoc getCreatorFees} */
  getCreatorFees: (...parameters: BoundArgs<GetCreatorFeesParameters>) => ReturnType<typeof getCreatorFees>
  /** {@inheritDoc getNetworkStats} */
  getNetworkStats: (...parameters: BoundArgs<GetNetworkStatsParameters>) => ReturnType<typeof getNetworkStats>
  /** {@inheritDoc getPendingStakerFees} */
  getPendingStakerFees: (
    ...parameters: BoundArgs<GetPendingStakerFeesParameters>
  ) => ReturnType<typeof getPendingStakerFees>
  /** {@inheritDoc getProtocolParams} */
  getProtocolParams: (
    ...parameters: BoundArgs<GetProtocolParamsParameters>
  ) => ReturnType<typeof getProtocolParams>
  /** {@inheritDoc getTreasuryAccrued} */
  getTreasuryAccrued: (
    ...parameters: BoundArgs<GetTreasuryAccruedParameters>
  ) => ReturnType<typeof getTreasuryAccrued>
  /** {@inheritDoc setParams} */
  setParams: (...parameters: BoundArgs<SetParamsParameters>) => ReturnType<typeof setParams>
  /** {@inheritDoc setTreasury} */
  setTreasury: (...parameters: BoundArgs<SetTreasuryParameters>) => ReturnType<typeof setTreasury>
  /** {@inheritDoc withdrawTreasury} */
  withdrawTreasury: (
    ...parameters: BoundArgs<WithdrawTreasuryParameters>
  ) => ReturnType<typeof withdrawTreasury>
  /** {@inheritDoc createReceipt} */
  createReceipt: (...parameters: BoundArgs<CreateReceiptParameters>) => ReturnType<typeof createReceipt>
  /** {@inheritDoc getReceipt} */
  getReceipt: (...parameters: BoundArgs<GetReceiptParameters>) => ReturnType<typeof getReceipt>
}

/**
 * Binds every Gridforge action to a viem client and a deployment, and the list
 * and statistics actions to an `indexer` when one is given. The methods call
 * the same standalone functions, so importing those directly keeps bundles small.
 *
 * @example
 * import { createWalletClient, http, publicActions } from 'viem'
 * import { hardhat } from 'viem/chains'
 * import { getDeployment } from '@gridforge/contracts'
 * import { gridforgeActions } from '@gridforge/sdk'
 *
 * const client = createWalletClient({ account, chain: hardhat, transport: http() })
 *   .extend(publicActions)
 *   .extend(gridforgeActions({ deployment: getDeployment(31337) }))
 * const { taskId } = await client.submitTask({ sourceId: 1, input: cid, maxPayment: '5' })
 * await client.waitForTask({ taskId })
 *
 * // Lists and statistics through an indexer, the chain's logs when it is down.
 * const indexed = client.extend(
 *   gridforgeActions({ deployment: getDeployment(31337), indexer: 'http://127.0.0.1:42069' }),
 * )
 * const mine = await indexed.listTasks({ client: account.address })
 */
export function gridforgeActions({ deployment, indexer }: GridforgeActionsParameters) {
  return <client extends Client<Transport, Chain | undefined, Account | undefined>>(
    client: client,
  ): GridforgeActions => {
    // biome-ignore lint/suspicious/noExplicitAny: each entry passes its own parameters through unchanged
    const bind = (parameters: any = {}) => ({
      ...parameters,
      deployment: parameters.deployment ?? deployment,
    })
    // Only the actions that read an indexer get one: the others pass their parameters on to viem.
    // biome-ignore lint/suspicious/noExplicitAny: as `bind`
    const bindIndexed = (parameters: any = {}) => ({
      ...bind(parameters),
      indexer: parameters.indexer ?? indexer,
    })
    return {
      acceptOwnership: (parameters) => acceptOwnership(client, bind(parameters)),
      getOwnership: (parameters) => getOwnership(client, bind(parameters)),
      renounceOwnership: (parameters) => renounceOwnership(client, bind(parameters)),
      transferOwnership: (parameters) => transferOwnership(client, bind(parameters)),
      deactivateSource: (parameters) => deactivateSource(client, bind(parameters)),
      getSource: (parameters) => getSource(client, bind(parameters)),
      getSourceCount: (parameters) => getSourceCount(client, bind(parameters)),
      listSources: (parameters) => listSources(client, bindIndexed(parameters)),
      publishSource: (parameters) => publishSource(client, bind(parameters)),
      reactivateSource: (parameters) => reactivateSource(client, bind(parameters)),
      transferSource: (parameters) => transferSource(client, bind(parameters)),
      getPriceFloor: (parameters) => getPriceFloor(client, bind(parameters)),
      getProvider: (parameters) => getProvider(client, bind(parameters)),
      getProviderRegistryParams: (parameters) => getProviderRegistryParams(client, bind(parameters)),
      getProviderSummary: (parameters) => getProviderSummary(client, bindIndexed(parameters)),
      getReputation: (parameters) => getReputation(client, bind(parameters)),
      isSubscribed: (parameters) => isSubscribed(client, bind(parameters)),
      pauseProvider: (parameters) => pauseProvider(client, bind(parameters)),
      registerProvider: (parameters) => registerProvider(client, bind(parameters)),
      resumeProvider: (parameters) => resumeProvider(client, bind(parameters)),
      setMinProviderStake: (parameters) => setMinProviderStake(client, bind(parameters)),
      setMinRecordPayment: (parameters) => setMinRecordPayment(client, bind(parameters)),
      setPriceFloor: (parameters) => setPriceFloor(client, bind(parameters)),
      subscribeSources: (parameters) => subscribeSources(client, bind(parameters)),
      unsubscribeSources: (parameters) => unsubscribeSources(client, bind(parameters)),
      updateCapabilities: (parameters) => updateCapabilities(client, bind(parameters)),
      claimRewards: (parameters) => claimRewards(client, bind(parameters)),
      getDiscountTiers: (parameters) => getDiscountTiers(client, bind(parameters)),
      getFeeDiscount: (parameters) => getFeeDiscount(client, bind(parameters)),
      getRewards: (parameters) => getRewards(client, bind(parameters)),
      getStake: (parameters) => getStake(client, bind(parameters)),
      getStakingParams: (parameters) => getStakingParams(client, bind(parameters)),
      requestUnbond: (parameters) => requestUnbond(client, bind(parameters)),
      setDiscountTiers: (parameters) => setDiscountTiers(client, bind(parameters)),
      setUnbondingPeriod: (parameters) => setUnbondingPeriod(client, bind(parameters)),
      stake: (parameters) => stake(client, bind(parameters)),
      withdrawUnbonded: (parameters) => withdrawUnbonded(client, bind(parameters)),
      approveMarket: (parameters) => approveMarket(client, bind(parameters)),
      deposit: (parameters) => deposit(client, bind(parameters)),
      getWalletBalance: (parameters) => getWalletBalance(client, bind(parameters)),
      signPermit: (parameters) => signPermit(client, bind(parameters)),
      withdraw: (parameters) => withdraw(client, bind(parameters)),
      approveLeaseMarket: (parameters) => approveLeaseMarket(client, bind(parameters)),
      requestLease: (parameters) => requestLease(client, bind(parameters)),
      requestLeaseWithPermit: (parameters) => requestLeaseWithPermit(client, bind(parameters)),
      acceptLease: (parameters) => acceptLease(client, bind(parameters)),
      topUpLease: (parameters) => topUpLease(client, bind(parameters)),
      topUpLeaseWithPermit: (parameters) => topUpLeaseWithPermit(client, bind(parameters)),
      extendLease: (parameters) => extendLease(client, bind(parameters)),
      closeLease: (parameters) => closeLease(client, bind(parameters)),
      reportOffline: (parameters) => reportOffline(client, bind(parameters)),
      giveNotice: (parameters) => giveNotice(client, bind(parameters)),
      redeemUsage: (parameters) => redeemUsage(client, bind(parameters)),
      endForSilence: (parameters) => endForSilence(client, bind(parameters)),
      settleLease: (parameters) => settleLease(client, bind(parameters)),
      withdrawLeaseBalance: (parameters) => withdrawLeaseBalance(client, bind(parameters)),
      getLease: (parameters) => getLease(client, bind(parameters)),
      getLeaseEnd: (parameters) => getLeaseEnd(client, bind(parameters)),
      getLeaseCost: (parameters) => getLeaseCost(client, bind(parameters)),
      getLeaseParams: (parameters) => getLeaseParams(client, bind(parameters)),
      listLeases: (parameters) => listLeases(client, bindIndexed(parameters)),
      signInToLease: (parameters) => signInToLease(client, bind(parameters)),
      cancelTask: (parameters) => cancelTask(client, bind(parameters)),
      claimTask: (parameters) => claimTask(client, bind(parameters)),
      commitResult: (parameters) => commitResult(client, bind(parameters)),
      expireTask: (parameters) => expireTask(client, bind(parameters)),
      finalizeTask: (parameters) => finalizeTask(client, bind(parameters)),
      getAudit: (parameters) => getAudit(client, bind(parameters)),
      getAuditDraw: (parameters) => getAuditDraw(client, bind(parameters)),
      getTask: (parameters) => getTask(client, bind(parameters)),
      getTaskResult: (parameters) => getTaskResult(client, bind(parameters)),
      getTasks: (parameters) => getTasks(client, bind(parameters)),
      joinAudit: (parameters) => joinAudit(client, bind(parameters)),
      listTasks: (parameters) => listTasks(client, bindIndexed(parameters)),
      quoteTask: (parameters) => quoteTask(client, bind(parameters)),
      releaseResult: (parameters) => releaseResult(client, bind(parameters)),
      reopenSlot: (parameters) => reopenSlot(client, bind(parameters)),
      revealResult: (parameters) => revealResult(client, bind(parameters)),
      submitResult: (parameters) => submitResult(client, bind(parameters)),
      submitTask: (parameters) => submitTask(client, bind(parameters)),
      submitTaskWithPermit: (parameters) => submitTaskWithPermit(client, bind(parameters)),
      submitTasks: (parameters) => submitTasks(client, bind(parameters)),
      waitForTask: (parameters) => waitForTask(client, bind(parameters)),
      watchTask: (parameters) => watchTask(client, bind(parameters)),
      watchTasks: (parameters) => watchTasks(client, bind(parameters)),
      claimCreatorFees: (parameters) => claimCreatorFees(client, bind(parameters)),
      getCollateral: (parameters) => getCollateral(client, bind(parameters)),
      getCreatorFees: (parameters) => getCreatorFees(client, bind(parameters)),
      getNetworkStats: (parameters) => getNetworkStats(client, bindIndexed(parameters)),
      getPendingStakerFees: (parameters) => getPendingStakerFees(client, bind(parameters)),
      getProtocolParams: (parameters) => getProtocolParams(client, bind(parameters)),
      getTreasuryAccrued: (parameters) => getTreasuryAccrued(client, bind(parameters)),
      setParams: (parameters) => setParams(client, bind(parameters)),
      setTreasury: (parameters) => setTreasury(client, bind(parameters)),
      withdrawTreasury: (parameters) => withdrawTreasury(client, bind(parameters)),
      createReceipt: (parameters) => createReceipt(client, bind(parameters)),
      getReceipt: (parameters) => getReceipt(client, bind(parameters)),
    }
  }
}
