import { buildModule } from '@nomicfoundation/ignition-core'
import { deployCore } from './core.js'

const ZERO_BYTES32 = `0x${'0'.repeat(64)}`

/**
 * Gridforge on a real network: the core contracts around an existing ERC-20
 * `asset`, owned by an OpenZeppelin `TimelockController`, so that every
 * parameter change is announced on chain `timelockMinDelay` seconds before it
 * takes effect (and users can leave first).
 *
 * Parameters (module id `Gridforge`):
 * - `asset` (address, required): the ERC-20 used for payments and stake.
 * - `treasury` (address, required): receives the treasury part of protocol fees.
 * - `timelockMinDelay` (seconds, required): the delay of every governance action.
 * - `timelockProposers` (address[], required): may schedule (and cancel) actions,
 *   e.g. a Safe or a Governor.
 * - `timelockExecutors` (address[], required): may execute ready actions;
 *   `["0x0000000000000000000000000000000000000000"]` lets anyone execute.
 * - `unbondingPeriod`, `minProviderStake`, `marketParams`, `leaseParams` (optional): as in `deployCore`.
 *
 * The lease market is named in Staking during the deployment, while the
 * deployer still owns it. An existing governed deployment without one adds it
 * through the timelock: deploy `LeaseMarket(market, timelock, params)`, then
 * schedule `Staking.setLeaseMarket(leaseMarket)`; the delay (at least the
 * unbonding period, which the module enforces) lets stakers who distrust the
 * new contract leave before it can lock or slash their stake. It can be set once.
 *
 * The deployer (account 0) must not be one of the proposers or executors: it
 * gives up every role at the end of the deployment.
 *
 * ## The ownership bootstrap, and why it is safe
 *
 * The core is deployed with the deployer as owner (so one module can deploy
 * it and the timelock together). Ownership then moves to the timelock.
 * `Ownable2Step` needs the new owner to call `acceptOwnership()`, and a
 * timelock only calls out through scheduled operations, which wait the
 * minimum delay: with a real delay (days) one Ignition run could not finish.
 * So the timelock starts with a minimum delay of 0 and the deployer as admin,
 * and in this order:
 *
 * 1. the deployer grants itself PROPOSER_ROLE and EXECUTOR_ROLE;
 * 2. it calls `transferOwnership(timelock)` on Staking, ProviderRegistry, TaskMarket and
 *    LeaseMarket (the timelock becomes pending owner; the deployer stays owner);
 * 3. it schedules and, in the next transaction, executes one batch through the
 *    timelock: `acceptOwnership()` on the four contracts, then
 *    `updateDelay(timelockMinDelay)` on the timelock itself. The batch is
 *    atomic: the timelock becomes owner of all four and the real delay is in
 *    force in the same transaction, or nothing happens;
 * 4. it revokes its PROPOSER_ROLE and EXECUTOR_ROLE and renounces
 *    DEFAULT_ADMIN_ROLE. From then on the timelock administers its own roles,
 *    so adding a proposer is itself a delayed operation.
 *
 * Why this gives nobody powers they did not already have:
 * - Until step 3 the deployer owns every contract anyway; the zero delay only
 *   lets it do through the timelock what it could already do directly.
 * - `updateDelay` is in the same batch as the ownership acceptance, so there is
 *   no moment in which the timelock owns the system with a zero delay.
 * - The deployer cannot schedule anything new with a shorter delay after step
 *   3, and after step 4 holds no role at all; `deployer` never gets
 *   CANCELLER_ROLE (only constructor proposers do).
 * - What remains is the bootstrap window (from the timelock's deployment to
 *   step 3, a few blocks) in which the configured proposers could schedule an
 *   operation with a zero delay. They are the governance the timelock serves,
 *   and anything they schedule is public (`CallScheduled`); `scripts/deploy.ts`
 *   checks after the deployment that the bootstrap batch is the only operation
 *   ever scheduled, and that owners, delay and roles are as described here.
 * - With an open executor role (the zero address among the executors) anyone
 *   may execute the scheduled bootstrap batch before the deployer does. The
 *   result is the same; only the deployer's own `executeBatch` then reverts
 *   and Ignition stops, and the remaining role clean-up (step 4) must be
 *   resumed after `hardhat ignition wipe <deployment> Gridforge#Timelock_executeBootstrap`.
 */
const Gridforge = buildModule('Gridforge', (m) => {
  const deployer = m.getAccount(0)
  const asset = m.contractAt('IERC20', m.getParameter<string>('asset'), { id: 'Asset' })
  const { sources, staking, providers, market, leases } = deployCore(m, {
    asset,
    owner: deployer,
    treasury: m.getParameter<string>('treasury'),
  })
  const minDelay = m.getParameter<bigint>('timelockMinDelay')

  const timelock = m.contract('TimelockController', [
    0n,
    m.getParameter<string[]>('timelockProposers'),
    m.getParameter<string[]>('timelockExecutors'),
    deployer,
  ])
  const proposerRole = m.staticCall(timelock, 'PROPOSER_ROLE', [], 0, { id: 'Timelock_PROPOSER_ROLE' })
  const executorRole = m.staticCall(timelock, 'EXECUTOR_ROLE', [], 0, { id: 'Timelock_EXECUTOR_ROLE' })
  const adminRole = m.staticCall(timelock, 'DEFAULT_ADMIN_ROLE', [], 0, { id: 'Timelock_DEFAULT_ADMIN_ROLE' })

  // 1. Temporary roles for the deployer.
  const grantProposer = m.call(timelock, 'grantRole', [proposerRole, deployer], {
    id: 'Timelock_grantProposer',
  })
  const grantExecutor = m.call(timelock, 'grantRole', [executorRole, deployer], {
    id: 'Timelock_grantExecutor',
  })

  // 2. Hand over: the timelock becomes pending owner; the deployer stays owner until the batch below.
  const owned = [staking, providers, market, leases] as const
  const transfers = owned.map((contract) =>
    m.call(contract, 'transferOwnership', [timelock], {
      id: `${contract.contractName}_transferOwnership`,
    }),
  )

  // 3. One atomic batch: accept ownership of all four, then switch the real delay on.
  const targets = [...owned, timelock]
  const payloads = [
    ...owned.map((contract) =>
      m.encodeFunctionCall(contract, 'acceptOwnership', [], {
        id: `${contract.contractName}_acceptOwnership`,
      }),
    ),
    m.encodeFunctionCall(timelock, 'updateDelay', [minDelay], { id: 'Timelock_updateDelay' }),
  ]
  const values = targets.map(() => 0n)
  const predecessor = ZERO_BYTES32
  const salt = ZERO_BYTES32
  const scheduled = m.call(timelock, 'scheduleBatch', [targets, values, payloads, predecessor, salt, 0n], {
    id: 'Timelock_scheduleBootstrap',
    after: [grantProposer, ...transfers],
  })
  const executed = m.call(timelock, 'executeBatch', [targets, values, payloads, predecessor, salt], {
    id: 'Timelock_executeBootstrap',
    after: [scheduled, grantExecutor],
  })

  // 4. The deployer gives up every role; the timelock administers itself from now on.
  const revokeProposer = m.call(timelock, 'revokeRole', [proposerRole, deployer], {
    id: 'Timelock_revokeProposer',
    after: [executed],
  })
  const revokeExecutor = m.call(timelock, 'revokeRole', [executorRole, deployer], {
    id: 'Timelock_revokeExecutor',
    after: [executed],
  })
  m.call(timelock, 'renounceRole', [adminRole, deployer], {
    id: 'Timelock_renounceAdmin',
    after: [revokeProposer, revokeExecutor],
  })

  return { token: asset, sources, staking, providers, market, leases, timelock }
})

export default Gridforge
