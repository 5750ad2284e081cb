import { createPublicClient, createWalletClient, erc20Abi, parseUnits, publicActions, encodeFunctionData, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { multicall3Bytecode } from '/work/main/packages/sdk/node_modules/viem/_esm/constants/contracts.js'
import { startDevnet } from '../../contracts/scripts/devnet.js'
import { getTask as getTaskFunction, getSlots as getSlotsFunction } from '../src/abis/taskMarket.js'
import { type FixtureClient, publishSource, send, submitFixtureTasks, countingTransport } from '../src/tasks/testing-reads.js'

await using devnet = await startDevnet()
const deployment = devnet.deployment
const account = privateKeyToAccount(devnet.privateKeys[1]!)
const wallet = createWalletClient({ account, chain: hardhat, transport: countingTransport(devnet.rpcUrl).transport }).extend(publicActions) as unknown as FixtureClient
const deployer = createWalletClient({ account: privateKeyToAccount(devnet.privateKeys[0]!), chain: hardhat, transport: countingTransport(devnet.rpcUrl).transport }).extend(publicActions) as unknown as FixtureClient
await send(deployer, { address: deployment.contracts.token, abi: erc20Abi, functionName: 'transfer', args: [account.address, parseUnits('2000', 18)] })
const sourceId = await publishSource(wallet, deployment)
const r = await submitFixtureTasks(wallet, deployment, { sourceId, count: 100 })
const rc = await wallet.getTransactionReceipt({ hash: (await wallet.getBlock({ blockNumber: r.blockNumber })).transactions[0] as Hex })
console.log('gas for 100 submits', rc.gasUsed)
for (let i = 0; i < 11; i++) await submitFixtureTasks(wallet, deployment, { sourceId, count: 100 })
const client = createPublicClient({ chain: hardhat, transport: countingTransport(devnet.rpcUrl).transport })
const block = await client.getBlock()
console.log('block gas limit', block.gasLimit)
const contracts = (n: number) => Array.from({ length: n }, (_, i) => BigInt(i + 1)).flatMap((taskId) => [
  { address: deployment.contracts.market, abi: [getTaskFunction], functionName: 'getTask', args: [taskId] } as const,
  { address: deployment.contracts.market, abi: [getSlotsFunction], functionName: 'getSlots', args: [taskId] } as const,
])
for (const c of contracts(2)) console.log('gas', c.functionName, await client.estimateGas({ to: c.address, data: encodeFunctionData(c as never) }))
for (const n of [10, 20, 30, 40, 50, 100]) {
  try {
    const res = await client.multicall({ contracts: contracts(n), deployless: true, batchSize: 0 })
    console.log('deployless', n, 'ok', res.filter((x) => x.status === 'success').length)
  } catch (e) { console.log('deployless', n, 'fail', (e as Error).message.split('\n').find((l) => l.startsWith('Details'))) }
}
// runtime code of multicall3 via creation eth_call
const { data: runtime } = await client.call({ data: multicall3Bytecode })
console.log('runtime code bytes', ((runtime?.length ?? 2) - 2) / 2)
const mc = '0xcA11bde05977b3631167028862bE2a173976CA11' as const
for (const n of [100, 500, 1000, 1200]) {
  try {
    const t = performance.now()
    const res = await client.multicall({ contracts: contracts(n), multicallAddress: mc, stateOverride: [{ address: mc, code: runtime! }], batchSize: 0 })
    console.log('override', n, 'ok', res.filter((x) => x.status === 'success').length, Math.round(performance.now() - t), 'ms')
    const f = res.find((x) => x.status === 'failure'); if (f) console.log(String(f.error).split('\n').slice(0, 3).join(' | ').slice(0, 300))
  } catch (e) { console.log('override', n, 'fail', (e as Error).message.split('\n').find((l) => l.startsWith('Details'))) }
}
// gas estimate for 1000
const calls = contracts(1000).map((c) => ({ target: c.address, allowFailure: true, callData: encodeFunctionData(c as never) }))
const { multicall3Abi } = await import('viem/constants' as string).catch(() => ({ multicall3Abi: undefined }))
try {
  const gas = await client.request({ method: 'eth_estimateGas', params: [{ to: mc, data: encodeFunctionData({ abi: [{ type: 'function', name: 'aggregate3', stateMutability: 'payable', inputs: [{ type: 'tuple[]', name: 'calls', components: [{ name: 'target', type: 'address' }, { name: 'allowFailure', type: 'bool' }, { name: 'callData', type: 'bytes' }] }], outputs: [] }], functionName: 'aggregate3', args: [calls] }) }, 'latest', { [mc]: { code: runtime! } }] as never })
  console.log('estimateGas 1000 tasks', BigInt(gas as string))
} catch (e) { console.log('estimate fail', (e as Error).message.slice(0, 300)) }
void multicall3Abi
