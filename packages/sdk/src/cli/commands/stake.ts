import { examples, fields, formatDate, formatTransaction } from '@gridforge/cli-kit'
import { claimRewards } from '../../staking/claimRewards.js'
import { getRewards } from '../../staking/getRewards.js'
import { getStake } from '../../staking/getStake.js'
import { requestUnbond } from '../../staking/requestUnbond.js'
import { stake } from '../../staking/stake.js'
import { withdrawUnbonded } from '../../staking/withdrawUnbonded.js'
import { formatAmount } from '../../utils/amount.js'
import { amount } from '../parse.js'
import type { CommandGroup } from '../program.js'

export const stakeCommands: CommandGroup = (program, contextOf) => {
  const group = program
    .command('stake')
    .description('staking: collateral for providers, fee discounts and a share of protocol fees for everyone')
    .addHelpText('after', examples('gridforge stake add 100', 'gridforge stake rewards'))

  group
    .command('add')
    .description('stake tokens from your wallet (approves Staking first if needed)')
    .argument('<amount>', 'in token units, e.g. 100')
    .option('--permit', 'sign an EIP-2612 permit instead of sending an approve transaction')
    .addHelpText('after', examples('gridforge stake add 100', 'gridforge stake add 250 --permit'))
    .action(async (value: string, options: { permit?: boolean }, command) => {
      const context = contextOf(command)
      const [client, deployment, token] = await Promise.all([
        context.walletClient(),
        context.deployment(),
        context.token(),
      ])
      context.terminal.progress(`staking ${value} ${token.symbol}…`)
      const result = await stake(client, {
        deployment,
        amount: amount(value),
        ...(options.permit === true ? { permit: true } : { approve: true }),
      })
      context.terminal.result(
        result,
        () => `staked ${formatAmount(result.amount, token)}: ${formatTransaction(result)}`,
      )
    })

  group
    .command('unbond')
    .description(
      'start unbonding available stake; withdraw it with `stake withdraw` after the unbonding period',
    )
    .argument('<amount>', 'in token units, e.g. 50')
    .addHelpText('after', examples('gridforge stake unbond 50'))
    .action(async (value: string, _options: object, command) => {
      const context = contextOf(command)
      const [client, deployment, token] = await Promise.all([
        context.walletClient(),
        context.deployment(),
        context.token(),
      ])
      context.terminal.progress(`unbonding ${value} ${token.symbol}…`)
      const result = await requestUnbond(client, { deployment, amount: amount(value) })
      context.terminal.result(result, () => [
        `unbonding ${formatAmount(result.amount, token)} (${formatAmount(result.totalUnbonding, token)} in all): ${formatTransaction(result)}`,
        `withdraw it with \`gridforge stake withdraw\` after ${formatDate(result.readyAt)}`,
      ])
    })

  group
    .command('withdraw')
    .description('withdraw stake whose unbonding period has ended')
    .addHelpText('after', examples('gridforge stake withdraw'))
    .action(async (_options: object, command) => {
      const context = contextOf(command)
      const [client, deployment, token] = await Promise.all([
        context.walletClient(),
        context.deployment(),
        context.token(),
      ])
      context.terminal.progress('withdrawing unbonded stake…')
      const result = await withdrawUnbonded(client, { deployment })
      context.terminal.result(
        result,
        () => `withdrew ${formatAmount(result.amount, token)}: ${formatTransaction(result)}`,
      )
    })

  group
    .command('rewards')
    .description('stake and claimable rewards of an account (default: yours)')
    .argument('[address]', 'the account (default: the configured key)')
    .addHelpText('after', examples('gridforge stake rewards', 'gridforge --json stake rewards 0xabc…'))
    .action(async (given: string | undefined, _options: object, command) => {
      const context = contextOf(command)
      const account = await context.addressOr(given, 'stake rewards')
      const [client, deployment, token] = await Promise.all([
        context.client(),
        context.deployment(),
        context.token(),
      ])
      const [position, rewards] = await Promise.all([
        getStake(client, { deployment, account }),
        getRewards(client, { deployment, account }),
      ])
      context.terminal.result({ account, ...position, rewards }, () =>
        fields([
          ['account', account],
          ['staked', formatAmount(position.staked, token)],
          ['locked', formatAmount(position.locked, token)],
          ['available', formatAmount(position.available, token)],
          ['unbonding', formatAmount(position.unbonding, token)],
          ['withdrawable after', position.unbondingReadyAt],
          ['rewards', formatAmount(rewards, token)],
        ]),
      )
    })

  group
    .command('claim')
    .description('claim your share of protocol fees')
    .addHelpText('after', examples('gridforge stake claim'))
    .action(async (_options: object, command) => {
      const context = contextOf(command)
      const [client, deployment, token] = await Promise.all([
        context.walletClient(),
        context.deployment(),
        context.token(),
      ])
      context.terminal.progress('claiming rewards…')
      const result = await claimRewards(client, { deployment })
      context.terminal.result(
        result,
        () => `claimed ${formatAmount(result.amount, token)}: ${formatTransaction(result)}`,
      )
    })
}
