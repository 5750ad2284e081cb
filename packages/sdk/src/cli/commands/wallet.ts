import { access, writeFile } from 'node:fs/promises'
import { examples, fields, formatTransaction, promptHidden, UsageError } from '@gridforge/cli-kit'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { encryptKeystore } from '../../keystore/keystore.js'
import { formatAmount } from '../../utils/amount.js'
import { deposit } from '../../wallet/deposit.js'
import { getWalletBalance } from '../../wallet/getWalletBalance.js'
import { withdraw } from '../../wallet/withdraw.js'
import type { Context } from '../context.js'
import { amount } from '../parse.js'
import type { CommandGroup } from '../program.js'

export const walletCommands: CommandGroup = (program, contextOf) => {
  const wallet = program
    .command('wallet')
    .description('your balance in the market (what tasks are paid from), deposits, withdrawals, keys')
    .addHelpText('after', examples('gridforge wallet balance', 'gridforge wallet deposit 20'))

  wallet
    .command('deposit')
    .description(
      'move tokens from your wallet into your market balance (approves the market first if needed)',
    )
    .argument('<amount>', 'in token units, e.g. 20 or 0.5')
    .option('--permit', 'sign an EIP-2612 permit instead of sending an approve transaction')
    .addHelpText('after', examples('gridforge wallet deposit 20', 'gridforge wallet deposit 2.5 --permit'))
    .action(async (value: string, options: { permit?: boolean }, command) => {
      const context = contextOf(command)
      const [client, deployment, token] = await Promise.all([
        context.walletClient(),
        context.deployment(),
        context.token(),
      ])
      context.terminal.progress(`depositing ${value} ${token.symbol}…`)
      const result = await deposit(client, {
        deployment,
        amount: amount(value),
        ...(options.permit === true ? { permit: true } : { approve: true }),
      })
      context.terminal.result(
        result,
        () => `deposited ${formatAmount(result.amount, token)}: ${formatTransaction(result)}`,
      )
    })

  wallet
    .command('withdraw')
    .description('move tokens from your market balance back to your wallet (or to --to)')
    .argument('<amount>', 'in token units, e.g. 5')
    .option('--to <address>', 'send them to this address instead')
    .addHelpText('after', examples('gridforge wallet withdraw 5', 'gridforge wallet withdraw 5 --to 0xabc…'))
    .action(async (value: string, options: { to?: string }, command) => {
      const context = contextOf(command)
      const [client, deployment, token] = await Promise.all([
        context.walletClient(),
        context.deployment(),
        context.token(),
      ])
      context.terminal.progress(`withdrawing ${value} ${token.symbol}…`)
      const result = await withdraw(client, {
        deployment,
        amount: amount(value),
        ...(options.to === undefined ? {} : { to: options.to as Hex }),
      })
      context.terminal.result(
        result,
        () => `withdrew ${formatAmount(result.amount, token)} to ${result.to}: ${formatTransaction(result)}`,
      )
    })

  wallet
    .command('balance')
    .description('market balance, token balance and allowance of an account (default: yours)')
    .argument('[address]', 'the account (default: the configured key)')
    .addHelpText('after', examples('gridforge wallet balance', 'gridforge --json wallet balance 0xabc…'))
    .action(async (given: string | undefined, _options: object, command) => {
      const context = contextOf(command)
      const account = await context.addressOr(given, 'wallet balance')
      const [client, deployment, token] = await Promise.all([
        context.client(),
        context.deployment(),
        context.token(),
      ])
      const balance = await getWalletBalance(client, { deployment, account })
      context.terminal.result({ account, ...balance }, () =>
        fields([
          ['account', account],
          ['market balance', formatAmount(balance.balance, token)],
          ['wallet', formatAmount(balance.token, token)],
          ['allowance', formatAmount(balance.allowance, token)],
        ]),
      )
    })

  wallet
    .command('address')
    .description('the address of the configured key (GRIDFORGE_PRIVATE_KEY or --keystore)')
    .addHelpText('after', examples('gridforge --keystore key.json wallet address'))
    .action(async (_options: object, command) => {
      const context = contextOf(command)
      const { address } = await context.account()
      context.terminal.result({ address }, () => address)
    })

  const keystore = wallet
    .command('keystore')
    .description('encrypted key files (Web3 Secret Storage v3)')
    .addHelpText(
      'after',
      examples('GRIDFORGE_PRIVATE_KEY=0x… gridforge wallet keystore create --out key.json'),
    )

  keystore
    .command('create')
    .description(
      'encrypt GRIDFORGE_PRIVATE_KEY (or a new key with --generate) into a keystore file; the password comes from GRIDFORGE_KEYSTORE_PASSWORD or is asked for twice',
    )
    .requiredOption('--out <file>', 'where to write the keystore (never overwritten; mode 0600)')
    .option('--generate', 'encrypt a newly generated key instead of GRIDFORGE_PRIVATE_KEY')
    .option('--kdf <kdf>', 'scrypt (default) or pbkdf2', 'scrypt')
    .addHelpText(
      'after',
      examples(
        'GRIDFORGE_PRIVATE_KEY=0x… gridforge wallet keystore create --out key.json',
        'gridforge wallet keystore create --generate --out provider.json',
      ),
    )
    .action(async (options: { out: string; generate?: boolean; kdf: string }, command) => {
      const context = contextOf(command)
      if (options.kdf !== 'scrypt' && options.kdf !== 'pbkdf2') {
        throw new UsageError(`--kdf: '${options.kdf}' is not scrypt or pbkdf2`)
      }
      const exists = await access(options.out).then(
        () => true,
        () => false,
      )
      if (exists) throw new UsageError(`--out ${options.out} exists: keystores are never overwritten`)
      let key: Hex
      if (options.generate === true) {
        key = generatePrivateKey()
      } else {
        const raw = context.env.GRIDFORGE_PRIVATE_KEY?.trim() ?? ''
        if (raw === '') {
          throw new UsageError('no key to encrypt', [
            'Set GRIDFORGE_PRIVATE_KEY, or pass --generate for a new key.',
          ])
        }
        if (!/^(0x)?[0-9a-fA-F]{64}$/.test(raw)) {
          throw new UsageError('GRIDFORGE_PRIVATE_KEY is not a private key (expected 64 hex digits)')
        }
        key = (raw.startsWith('0x') ? raw : `0x${raw}`) as Hex
      }
      context.terminal.secret(key)
      const password = await newPassword(context)
      context.terminal.progress('encrypting…')
      const document = await encryptKeystore(key, password, { kdf: options.kdf })
      await writeFile(options.out, `${JSON.stringify(document, null, 2)}\n`, { mode: 0o600, flag: 'wx' })
      const address = privateKeyToAddress(key)
      context.terminal.result(
        { address, file: options.out },
        () => `wrote ${options.out} (address ${address})`,
      )
    })
}

async function newPassword(context: Context): Promise<string> {
  const fromEnv = context.env.GRIDFORGE_KEYSTORE_PASSWORD
  if (fromEnv !== undefined) {
    if (fromEnv === '') throw new UsageError('GRIDFORGE_KEYSTORE_PASSWORD is empty')
    return fromEnv
  }
  const stdin = context.stdin
  const first = await promptHidden('New keystore password: ', stdin, context.terminal.stderr)
  if (first === '') throw new UsageError('the password must not be empty')
  const second = await promptHidden('Repeat the password: ', stdin, context.terminal.stderr)
  if (first !== second) throw new UsageError('the passwords differ')
  return first
}
