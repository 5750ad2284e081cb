import { describe, expect, it } from 'vitest'
import type { AgentOptions } from '../../agent/AgentOptions.js'
import type { Agent } from '../../agent/agent.js'
import { parseConfig } from '../../config/loadConfig.js'
import { silentLogger } from '../../logger.js'
import type { ProcessControl, StopSignal } from '../program.js'
import { agentSettingsOf, runAgent } from './start.js'

/** Signals delivered by hand, and exits recorded instead of taken. */
function fakeProcess() {
  const handlers = new Map<StopSignal, Set<() => void>>()
  const exits: number[] = []
  const control: ProcessControl = {
    onSignal(signal, handler) {
      const set = handlers.get(signal) ?? new Set()
      set.add(handler)
      handlers.set(signal, set)
      return () => set.delete(handler)
    },
    exit: (code) => {
      exits.push(code)
    },
  }
  const send = (signal: StopSignal) => {
    for (const handler of handlers.get(signal) ?? []) handler()
  }
  return {
    control,
    send,
    exits,
    listeners: () => [...handlers.values()].reduce((sum, set) => sum + set.size, 0),
  }
}

/** An agent whose stop finishes only when `finish()` is called (work in flight). */
function slowAgent() {
  let finish: () => void = () => {}
  const done = new Promise<void>((resolve) => {
    finish = resolve
  })
  let stops = 0
  const agent: Agent = {
    address: '0x0000000000000000000000000000000000000001',
    tasks: () => [],
    leases: () => [],
    leaseGateway: undefined,
    stop: () => {
      stops++
      return done
    },
    done,
    [Symbol.asyncDispose]: () => done,
  }
  return { agent, finish, stops: () => stops }
}

const options = { logger: silentLogger } as AgentOptions

describe('runAgent', () => {
  it('stops gracefully on the first signal and exits at once on the second', async () => {
    const process = fakeProcess()
    const { agent, finish, stops } = slowAgent()
    const running = runAgent(options, process.control, async () => agent)
    await Promise.resolve()
    process.send('SIGTERM')
    expect(stops()).toBe(1)
    expect(process.exits).toEqual([])
    process.send('SIGINT')
    expect(process.exits).toEqual([130])
    expect(stops()).toBe(1)
    finish()
    await running
    expect(process.listeners()).toBe(0)
  })

  it('stops an agent that was still starting when the signal came', async () => {
    const process = fakeProcess()
    const { agent, finish, stops } = slowAgent()
    let started: (agent: Agent) => void = () => {}
    const running = runAgent(options, process.control, () => new Promise((resolve) => (started = resolve)))
    process.send('SIGINT')
    started(agent)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(stops()).toBe(1)
    finish()
    await running
  })
})

describe('agentSettingsOf', () => {
  it('turns token amounts into base units of the deployment token', () => {
    const config = parseConfig(
      '[policy]\nminPricePerGpuSecond = "0.000001"\nsources = [3]\n[withdraw]\nevery = "1h"\nminimum = "2.5"\n[runtime.limits]\npids = 64\n',
      { file: '/srv/provider.toml', home: '/home/p' },
    )
    const settings = agentSettingsOf(config, { symbol: 'USDC', decimals: 6 })
    expect(settings.policy).toEqual({
      sources: [3],
      minPricePerGpuSecond: 1n,
      concurrency: undefined,
      allowEgress: false,
      maxInputBytes: 1024 ** 3,
      audits: { enabled: true, minPayment: 0n },
    })
    expect(settings.withdraw).toEqual({ every: 3_600_000, minimum: 2_500_000n })
    expect(settings.limits).toEqual({ pids: 64 })
    expect(settings).toMatchObject({
      pollingInterval: 1000,
      rescanInterval: 30_000,
      submitMarginSec: 30,
      dataDir: '/home/p/.gridforge/provider',
    })
  })

  it('names the field whose amount has more decimals than the token', () => {
    const config = parseConfig('[policy]\nminPricePerGpuSecond = "0.0000001"\n', {
      file: '/p.toml',
      home: '/h',
    })
    expect(() => agentSettingsOf(config, { symbol: 'USDC', decimals: 6 })).toThrow(
      /policy\.minPricePerGpuSecond: '0\.0000001' has more than 6 decimals/,
    )
  })
})
