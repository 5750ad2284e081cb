import type { Account, Address, Chain, Client, Hash, Transport } from 'viem'
import * as z from 'zod/mini'
import {
  allowance,
  approve,
  ERC20InsufficientAllowance,
  ERC20InsufficientBalance,
  ERC20InvalidSpender,
} from '../abis/gridToken.js'
import { tokenHints } from '../errors/hints/staking.js'
import { InvalidParametersError } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { read, writeAndWait } from '../internal/write.js'
import type { Deployment } from '../types/deployment.js'
import { gridToken } from '../utils/amount.js'
import { type PermitSignature, signPermit } from './signPermit.js'

/**
 * How `stake` and `deposit` get the tokens they pull:
 * - nothing: an allowance must already cover the amount;
 * - `approve: true`: an `approve` transaction first when the allowance is short (two transactions);
 * - `permit: true`: an EIP-2612 permit signed now, used in the same transaction;
 * - `permit: PermitSignature`: a permit signed earlier (see `signPermit`).
 */
export interface FundingOptions {
  /** Sign an EIP-2612 permit (`true`) or use one signed earlier, instead of an allowance. */
  permit?: boolean | PermitSignature | undefined
  /** Send `approve(spender, amount)` first when the allowance is short: two transactions. */
  approve?: boolean | undefined
}

const bytes32 = /* @__PURE__ */ z
  .string({ error: 'expected 0x and 64 hex digits' })
  .check(z.regex(/^0x[0-9a-fA-F]{64}$/, { error: 'expected 0x and 64 hex digits' }))

/** The token errors a pull by the market or Staking can surface (a refused permit is swallowed by the contracts). */
export const tokenPullErrors = [ERC20InsufficientAllowance, ERC20InsufficientBalance] as const

/** The `permit` and `approve` options, for an action's parameter schema. */
export const fundingSchema = {
  permit: z.optional(
    z.union(
      [
        z.boolean(),
        z.object({
          owner: s.address,
          spender: s.address,
          value: z.bigint(),
          nonce: z.bigint(),
          deadline: z.bigint(),
          signature: z.string(),
          v: z.number(),
          r: bytes32,
          s: bytes32,
        }),
      ],
      { error: 'pass true, or a permit from signPermit' },
    ),
  ),
  approve: z.optional(z.boolean({ error: 'expected true or false' })),
}

interface FundingRequest {
  action: string
  deployment: Deployment
  owner: Address
  spender: Address
  amount: bigint
  account: Account | Address | undefined
  confirmations: number | undefined
}

/** The permit to send: signed now for `permit: true`, or checked against the call for a given one. */
export async function permitFor(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  permit: true | PermitSignature,
  { action, deployment, owner, spender, amount, account }: FundingRequest,
): Promise<PermitSignature> {
  if (permit === true) return signPermit(client, { deployment, spender, amount, account })
  const fields = [
    permit.owner?.toLowerCase() !== owner.toLowerCase() && {
      path: 'permit.owner',
      message: `the permit is for ${permit.owner}, but ${owner} sends the transaction`,
    },
    permit.spender?.toLowerCase() !== spender.toLowerCase() && {
      path: 'permit.spender',
      message: `the permit allows ${permit.spender}, not ${spender}`,
    },
    permit.value !== amount && {
      path: 'permit.value',
      message: `the permit is for ${permit.value} base units, the amount is ${amount}: they must be equal`,
    },
  ].filter((field) => field !== false)
  if (fields.length > 0) throw new InvalidParametersError({ action, fields })
  return permit
}

/**
 * Sends `approve(spender, amount)` and waits for it when the owner's allowance
 * is below `amount`; returns the approval's hash, or `undefined` when none was needed.
 */
export async function approveIfShort(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  { action, deployment, owner, spender, amount, account, confirmations }: FundingRequest,
): Promise<Hash | undefined> {
  const token = deployment.token ?? gridToken
  const address = deployment.contracts.token
  const current = await read<bigint>(client, {
    action,
    hints: tokenHints,
    token,
    address,
    abi: [allowance],
    functionName: 'allowance',
    args: [owner, spender],
  })
  if (current >= amount) return undefined
  const receipt = await writeAndWait(client, {
    action,
    hints: tokenHints,
    token,
    address,
    abi: [approve, ERC20InvalidSpender],
    functionName: 'approve',
    args: [spender, amount],
    account,
    confirmations,
  })
  return receipt.transactionHash
}

/** Refuses `permit` together with `approve`: they are two ways to the same allowance. */
export function checkFunding(
  action: string,
  { permit, approve }: { permit?: unknown; approve?: unknown },
): void {
  if (permit !== undefined && permit !== false && approve === true) {
    throw new InvalidParametersError({
      action,
      fields: [{ path: 'approve', message: 'pass either permit or approve, not both' }],
    })
  }
}
