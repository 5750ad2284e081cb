import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { network } from 'hardhat'
import { zeroAddress } from 'viem'
import { assertAddress, deployGridforge, grid } from './helpers/fixture.js'

const connection = await network.create()
const { viem, networkHelpers } = connection

const SUPPLY = grid(1_000_000_000)

describe('GridToken', () => {
  describe('deployment', () => {
    it('mints the whole supply to the recipient, with metadata', async () => {
      const [, recipient] = await viem.getWalletClients()
      const token = await viem.deployContract('GridToken', [recipient!.account.address, grid(42)])
      assert.equal(await token.read.name(), 'Gridforge Token')
      assert.equal(await token.read.symbol(), 'GRID')
      assert.equal(await token.read.decimals(), 18)
      assert.equal(await token.read.totalSupply(), grid(42))
      assert.equal(await token.read.balanceOf([recipient!.account.address]), grid(42))
      const [event] = await token.getEvents.Transfer()
      assert.equal(event?.args.from, zeroAddress)
      assertAddress(event?.args.to ?? '', recipient!)
      assert.equal(event?.args.value, grid(42))
    })

    it('has a fixed supply and no minting or owner functions', async () => {
      const { token, owner, clients, providerWallets, others } =
        await networkHelpers.loadFixture(deployGridforge)
      assert.equal(await token.read.totalSupply(), SUPPLY)
      let held = await token.read.balanceOf([owner.account.address])
      for (const wallet of [...clients, ...providerWallets, ...others]) {
        held += await token.read.balanceOf([wallet.account.address])
      }
      assert.equal(held, SUPPLY)
      const names = token.abi.filter((item) => item.type === 'function').map((item) => item.name)
      for (const forbidden of ['mint', 'burn', 'owner', 'transferOwnership']) {
        assert.ok(!names.includes(forbidden as never), `GridToken must not expose ${forbidden}`)
      }
    })

    it('exposes its EIP-712 domain', async () => {
      const { token, publicClient } = await networkHelpers.loadFixture(deployGridforge)
      const [, name, version, chainId, verifyingContract] = await token.read.eip712Domain()
      assert.equal(name, 'Gridforge Token')
      assert.equal(version, '1')
      assert.equal(chainId, BigInt(await publicClient.getChainId()))
      assertAddress(verifyingContract, token.address)
    })
  })

  describe('ERC-20', () => {
    it('transfers and emits Transfer', async () => {
      const { token, clients } = await networkHelpers.loadFixture(deployGridforge)
      const [alice, bob] = [clients[0]!, clients[1]!]
      const before = await token.read.balanceOf([bob.account.address])
      await viem.assertions.emitWithArgs(
        token.write.transfer([bob.account.address, grid(5)], { account: alice.account }),
        token,
        'Transfer',
        [alice.account.address, bob.account.address, grid(5)],
      )
      assert.equal(await token.read.balanceOf([bob.account.address]), before + grid(5))
    })

    it('approves, then transferFrom spends the allowance', async () => {
      const { token, clients } = await networkHelpers.loadFixture(deployGridforge)
      const [alice, bob, carol] = [clients[0]!, clients[1]!, clients[2]!]
      await viem.assertions.emitWithArgs(
        token.write.approve([bob.account.address, grid(10)], { account: alice.account }),
        token,
        'Approval',
        [alice.account.address, bob.account.address, grid(10)],
      )
      await viem.assertions.emitWithArgs(
        token.write.transferFrom([alice.account.address, carol.account.address, grid(4)], {
          account: bob.account,
        }),
        token,
        'Transfer',
        [alice.account.address, carol.account.address, grid(4)],
      )
      assert.equal(await token.read.allowance([alice.account.address, bob.account.address]), grid(6))
    })

    it('reverts on insufficient balance, allowance and invalid receiver', async () => {
      const { token, clients, others } = await networkHelpers.loadFixture(deployGridforge)
      const [alice, bob] = [clients[0]!, clients[1]!]
      const balance = await token.read.balanceOf([alice.account.address])
      await viem.assertions.revertWithCustomErrorWithArgs(
        token.write.transfer([bob.account.address, balance + 1n], { account: alice.account }),
        token,
        'ERC20InsufficientBalance',
        [alice.account.address, balance, balance + 1n],
      )
      await viem.assertions.revertWithCustomErrorWithArgs(
        token.write.transferFrom([alice.account.address, bob.account.address, 1n], {
          account: others[0]!.account,
        }),
        token,
        'ERC20InsufficientAllowance',
        [others[0]!.account.address, 0n, 1n],
      )
      await viem.assertions.revertWithCustomErrorWithArgs(
        token.write.transfer([zeroAddress, 1n], { account: alice.account }),
        token,
        'ERC20InvalidReceiver',
        [zeroAddress],
      )
      await viem.assertions.revertWithCustomErrorWithArgs(
        token.write.approve([zeroAddress, 1n], { account: alice.account }),
        token,
        'ERC20InvalidSpender',
        [zeroAddress],
      )
    })
  })

  describe('EIP-2612 permit', () => {
    it('sets the allowance from a signature and bumps the nonce', async () => {
      const { token, clients, signPermit } = await networkHelpers.loadFixture(deployGridforge)
      const [alice, bob] = [clients[0]!, clients[1]!]
      const permit = await signPermit(alice, bob.account.address, grid(7))
      // Anyone can relay the permit.
      await viem.assertions.emitWithArgs(
        token.write.permit(
          [
            alice.account.address,
            bob.account.address,
            permit.value,
            permit.deadline,
            permit.v,
            permit.r,
            permit.s,
          ],
          { account: bob.account },
        ),
        token,
        'Approval',
        [alice.account.address, bob.account.address, grid(7)],
      )
      assert.equal(await token.read.allowance([alice.account.address, bob.account.address]), grid(7))
      assert.equal(await token.read.nonces([alice.account.address]), 1n)
    })

    it('rejects an expired, replayed or mismatched permit', async () => {
      const { token, clients, signPermit } = await networkHelpers.loadFixture(deployGridforge)
      const [alice, bob] = [clients[0]!, clients[1]!]
      const now = BigInt(await networkHelpers.time.latest())

      const expired = await signPermit(alice, bob.account.address, grid(1), now)
      await viem.assertions.revertWithCustomErrorWithArgs(
        token.write.permit([
          alice.account.address,
          bob.account.address,
          expired.value,
          expired.deadline,
          expired.v,
          expired.r,
          expired.s,
        ]),
        token,
        'ERC2612ExpiredSignature',
        [now],
      )

      const permit = await signPermit(alice, bob.account.address, grid(1))
      const args = [
        alice.account.address,
        bob.account.address,
        permit.value,
        permit.deadline,
        permit.v,
        permit.r,
        permit.s,
      ] as const
      // A different value does not match the signature.
      await viem.assertions.revertWithCustomError(
        token.write.permit([args[0], args[1], grid(2), args[3], args[4], args[5], args[6]]),
        token,
        'ERC2612InvalidSigner',
      )
      await token.write.permit([...args])
      // The nonce moved on: the same signature now recovers another signer.
      await viem.assertions.revertWithCustomError(
        token.write.permit([...args]),
        token,
        'ERC2612InvalidSigner',
      )
    })
  })

  describe('ERC-5805 votes', () => {
    it('counts votes after delegation and checkpoints them by block', async () => {
      const { token, clients } = await networkHelpers.loadFixture(deployGridforge)
      const [alice, bob] = [clients[0]!, clients[1]!]
      const balance = await token.read.balanceOf([alice.account.address])
      assert.equal(await token.read.getVotes([alice.account.address]), 0n)

      const hash = await token.write.delegate([bob.account.address], { account: alice.account })
      await viem.assertions.emitWithArgs(hash, token, 'DelegateChanged', [
        alice.account.address,
        zeroAddress,
        bob.account.address,
      ])
      await viem.assertions.emitWithArgs(hash, token, 'DelegateVotesChanged', [
        bob.account.address,
        0n,
        balance,
      ])
      assertAddress(await token.read.delegates([alice.account.address]), bob)
      assert.equal(await token.read.getVotes([bob.account.address]), balance)

      const block = await token.read.clock()
      await networkHelpers.mine()
      // Moving tokens moves the delegate's votes.
      await token.write.transfer([bob.account.address, grid(1)], { account: alice.account })
      assert.equal(await token.read.getVotes([bob.account.address]), balance - grid(1))
      assert.equal(await token.read.getPastVotes([bob.account.address, BigInt(block)]), balance)
      assert.equal(await token.read.CLOCK_MODE(), 'mode=blocknumber&from=default')

      const current = await token.read.clock()
      await viem.assertions.revertWithCustomErrorWithArgs(
        token.read.getPastVotes([bob.account.address, BigInt(current)]),
        token,
        'ERC5805FutureLookup',
        [BigInt(current), current],
      )
    })

    it('delegates by signature', async () => {
      const { token, clients, publicClient } = await networkHelpers.loadFixture(deployGridforge)
      const [alice, bob] = [clients[0]!, clients[1]!]
      const expiry = BigInt((await networkHelpers.time.latest()) + 3_600)
      const signature = await alice.signTypedData({
        account: alice.account,
        domain: {
          name: 'Gridforge Token',
          version: '1',
          chainId: await publicClient.getChainId(),
          verifyingContract: token.address,
        },
        types: {
          Delegation: [
            { name: 'delegatee', type: 'address' },
            { name: 'nonce', type: 'uint256' },
            { name: 'expiry', type: 'uint256' },
          ],
        },
        primaryType: 'Delegation',
        message: { delegatee: bob.account.address, nonce: 0n, expiry },
      })
      const r = `0x${signature.slice(2, 66)}` as const
      const s = `0x${signature.slice(66, 130)}` as const
      const v = Number.parseInt(signature.slice(130, 132), 16)
      await viem.assertions.emitWithArgs(
        token.write.delegateBySig([bob.account.address, 0n, expiry, v, r, s], { account: bob.account }),
        token,
        'DelegateChanged',
        [alice.account.address, zeroAddress, bob.account.address],
      )
      await viem.assertions.revertWithCustomErrorWithArgs(
        token.write.delegateBySig([bob.account.address, 0n, expiry, v, r, s]),
        token,
        'InvalidAccountNonce',
        [alice.account.address, 1n],
      )
      await networkHelpers.time.increase(7_200)
      await viem.assertions.revertWithCustomErrorWithArgs(
        token.write.delegateBySig([bob.account.address, 1n, expiry, v, r, s]),
        token,
        'VotesExpiredSignature',
        [expiry],
      )
    })
  })
})
